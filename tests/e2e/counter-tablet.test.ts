import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCents } from "../../src/domain/loyalty/amount.ts";
import { parseScanCode } from "../../src/domain/loyalty/scan-code.ts";
import { shops } from "../../src/server/db/schema/index.ts";
import { expectAccessible, heading, open, snap, type Stack, startStack, unique } from "../setup/e2e.ts";
import { eventually } from "../setup/eventually.ts";

/**
 * Issue 29 item 6, in the browser at 390×844 (and a landscape tablet for the looks): the owner adds a counter tablet
 * on /admin/caisse and gets its pairing link once; the tablet opens it and shows the shop's rotating code and, after
 * a shopper's visit, that visit; staff type the PIN and an amount, a QR code appears, the shopper's phone claims it
 * and the tablet thanks them. The tablet opens nothing of the back office. axe on each screen.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe("/tablette", () => {
  it("the owner pairs a tablet; it shows the code, the last visit, and a QR code for an amount", async () => {
    const owner = await stack.createUser({ firstName: "Maëlle", lastName: "Comptoir" });
    const shopName = `Épicerie ${unique()}`;
    const shop = await stack.createShop(owner.id, { name: shopName });
    await stack.deps.db
      .update(shops)
      .set({ cardMode: "points", pointsPerVisit: 10, pointsPerEuro: 1, cooldownMinutes: 0, dailyCap: 10 })
      .where(eq(shops.id, shop.id));

    // The owner adds the tablet: the link is shown once, as text and as a QR code.
    const ownerContext = await stack.signedIn(owner);
    const admin = await ownerContext.newPage();
    await open(admin, "/admin/caisse", "Caisse et API");
    const section = admin.getByRole("region", { name: "Tablette de comptoir" });
    await section.getByLabel("Nom de la tablette").fill("Comptoir de l'entrée");
    await section.getByLabel("Code PIN de l'équipe").fill("4827");
    await section.getByRole("button", { name: "Ajouter la tablette" }).click();
    const shown = section.getByRole("status").filter({ hasText: "Tablette « Comptoir de l'entrée » ajoutée" });
    await eventually(() => shown.count()).toBe(1);
    const link = (await shown.locator("code").textContent())?.trim() ?? "";
    expect(link).toMatch(new RegExp(`^${stack.baseUrl}/tablette#appairage=[A-Za-z0-9_-]{43}$`));
    expect(await shown.getByRole("img", { name: /QR code d'appairage/ }).count()).toBe(1);
    await eventually(() => section.getByRole("list", { name: "Tablettes de la boutique" }).textContent()).toContain(
      "En attente",
    );
    await expectAccessible(admin);
    await snap(admin, "tablet-admin-paired", { fullPage: true });

    // The tablet (a browser with nobody signed in) opens the link: the code leaves the address at once.
    const tabletContext = await stack.newContext();
    const tablet = await tabletContext.newPage();
    await open(tablet, link.replace(stack.baseUrl, ""), shopName);
    expect(new URL(tablet.url()).hash).toBe("");
    const qr = tablet.getByRole("img", { name: `QR code à scanner pour valider un passage chez ${shopName}` });
    await eventually(() => qr.count()).toBe(1);
    expect(await tablet.getByText("Tablette « Comptoir de l'entrée »").count()).toBe(1);
    // A card earning by visit: no amount to enter.
    expect(await tablet.getByRole("button", { name: "Saisir un montant" }).count()).toBe(0);
    await expectAccessible(tablet);

    // A shopper scans the code on the screen: the visit shows in the list within seconds.
    const counterUrl = (await qr.getAttribute("data-qr")) ?? "";
    const counterCode = parseScanCode(counterUrl);
    expect(counterCode?.scanUid).toBe(shop.scanUid);
    const shopper = await stack.createUser({ firstName: "Nour", lastName: "Haddad" });
    const shopperContext = await stack.signedIn(shopper);
    const scanned = await shopperContext.request.post(`${stack.baseUrl}/api/cards/scan`, {
      data: { scanUid: counterCode!.scanUid, token: counterCode!.token, idempotencyKey: randomUUID() },
      headers: { origin: stack.baseUrl },
    });
    expect(scanned.status()).toBe(200);
    const visits = tablet.getByRole("list", { name: "Derniers passages crédités" });
    await eventually(() => visits.textContent()).toContain("Nour H.");
    expect(await visits.textContent()).toContain("à l'instant");
    expect(await visits.textContent()).toContain("+10 points");
    await expectAccessible(tablet);
    await snap(tablet, "tablet-screen-390");
    await tablet.setViewportSize({ width: 1280, height: 800 });
    await snap(tablet, "tablet-screen-landscape");
    await tablet.setViewportSize({ width: 390, height: 844 });

    // The owner makes the card earn by amount: the tablet offers amount entry instead of a code a visit without an
    // amount would be refused by.
    await stack.deps.db.update(shops).set({ earnBy: "amount" }).where(eq(shops.id, shop.id));
    await tablet.reload();
    await eventually(() => tablet.getByRole("button", { name: "Saisir un montant" }).count()).toBe(1);
    expect(await qr.count()).toBe(0);
    expect(await tablet.getByText("1 point par euro dépensé, arrondi au point inférieur.").count()).toBe(1);
    await expectAccessible(tablet);
    await snap(tablet, "tablet-amount-shop-390");
    await tablet.setViewportSize({ width: 1280, height: 800 });
    await snap(tablet, "tablet-amount-shop-landscape");
    await tablet.setViewportSize({ width: 390, height: 844 });

    // Staff: a wrong PIN is refused; the right one and an amount give a QR code for that amount.
    await tablet.getByRole("button", { name: "Saisir un montant" }).click();
    const entry = tablet.getByRole("dialog", { name: "Saisir un montant" });
    await entry.getByLabel("Code PIN de l'équipe").fill("0000");
    await entry.getByLabel("Montant des achats (€)").fill("23,90");
    await entry.getByRole("button", { name: "Afficher le QR code" }).click();
    await eventually(() => entry.getByText("Code PIN incorrect.").count()).toBeGreaterThan(0);
    await expectAccessible(tablet);
    await entry.getByLabel("Code PIN de l'équipe").fill("4827");
    await entry.getByLabel("Montant des achats (€)").fill("2000");
    await entry.getByRole("button", { name: "Afficher le QR code" }).click();
    await eventually(() => entry.getByText(/Montant trop élevé/).count()).toBe(1);
    await entry.getByLabel("Montant des achats (€)").fill("23,90");
    await entry.getByRole("button", { name: "Afficher le QR code" }).click();
    const shownCode = tablet.getByRole("dialog", { name: /23,90/ });
    await eventually(() => shownCode.count()).toBe(1);
    expect(await shownCode.textContent()).toContain("23 points à gagner");
    const amountQr = shownCode.getByRole("img", { name: /QR code de 23,90/ });
    const ticketUrl = (await amountQr.getAttribute("data-qr")) ?? "";
    expect(ticketUrl).toMatch(new RegExp(`^${stack.baseUrl}/ticket\\?c=R1\\.`));
    await expectAccessible(tablet);
    await snap(tablet, "tablet-amount-390");
    await tablet.setViewportSize({ width: 1280, height: 800 });
    await snap(tablet, "tablet-amount-landscape");
    await tablet.setViewportSize({ width: 390, height: 844 });

    // The shopper's phone opens the QR code: the amount's points, once; the tablet thanks them.
    const phone = await shopperContext.newPage();
    await open(phone, ticketUrl.replace(stack.baseUrl, ""), "Points ajoutés");
    await eventually(() => phone.getByRole("status").first().textContent()).toContain("23 points ajoutés");
    await eventually(() => shownCode.getByRole("status").textContent()).toContain("Merci Nour H. !");
    await expectAccessible(tablet);
    const again = await shopperContext.newPage();
    await open(again, ticketUrl.replace(stack.baseUrl, ""), "Ticket non crédité");
    await eventually(() => visits.textContent()).toContain(formatCents(2390));

    // The tablet is no session: the back office asks to sign in, its API answers 401.
    const denied = await tabletContext.request.get(`${stack.baseUrl}/api/backoffice/shops/${shop.id}/reader`);
    expect(denied.status()).toBe(401);
    const backOffice = await tabletContext.newPage();
    await backOffice.goto("/admin");
    await eventually(() => new URL(backOffice.url()).pathname).toBe("/login");
    await eventually(() => heading(backOffice)).toMatch(/Connexion|connecter/i);

    // The owner's list sets the tablet's day beside the till's takings.
    await admin.reload();
    await eventually(() => section.getByTestId("tablet-today").textContent()).toBe(
      `Aujourd'hui : 1 code de montant (${formatCents(2390)}), 1 scanné par un client`,
    );
    await snap(admin, "tablet-admin-today", { fullPage: true });

    // Removed by the owner, the tablet says it is no longer paired.
    await section.getByRole("button", { name: "Révoquer la tablette « Comptoir de l'entrée »" }).click();
    await eventually(() => section.getByRole("list", { name: "Tablettes de la boutique" }).textContent()).toContain(
      "Révoquée",
    );
    // The open screen notices by itself (its next poll is refused).
    await eventually(() => heading(tablet)).toBe("Tablette de comptoir");
    expect(await tablet.getByText("Cette tablette n'est reliée à aucune boutique.").count()).toBe(1);
    await expectAccessible(tablet);
    await snap(tablet, "tablet-unpaired-390");
  });
});
