import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff } from "../../src/server/db/factories.ts";
import { ledgerEntries, scans } from "../../src/server/db/schema/index.ts";
import { decodeQr } from "../fixtures/qr-decode.ts";
import { eventually, expectAccessible, snap, soleHeading, type Stack, startStack } from "../setup/e2e.ts";

/** Like snap(), the whole page: for long screens. */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});


/** A shop, its owner, and an employee (role "member") signed in on the counter's device. */
async function counterSetup(name: string) {
  const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
  const shop = await stack.createShop(owner.id, { name: `${name} ${randomUUID().slice(0, 6)}` });
  const employee = await stack.createUser({ firstName: "Hugo", lastName: "Lemoine" });
  await addStaff(stack.deps, shop.id, employee.id, "member");
  const context = await stack.newContext();
  await stack.signIn(context, employee.email, employee.password);
  return { owner, shop, employee, context };
}

/** What the QR code on screen says, read from its pixels. */
async function readCounterQr(page: Page, shopName: string) {
  const image = page.getByRole("img", { name: `QR code à scanner pour valider un passage chez ${shopName}` });
  await image.waitFor();
  const found = await decodeQr(new Uint8Array(await image.screenshot()));
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe("the counter (staff)", () => {
  it("/reader shows the shop's QR code, readable by a phone, renewed every 30 s, in portrait and landscape", async () => {
    const { shop, context } = await counterSetup("Boulangerie Lumière");
    const page = await context.newPage();
    await page.goto("/reader");
    await eventually(() => soleHeading(page)).toBe(shop.name);
    const url = await readCounterQr(page, shop.name);
    expect(url).toMatch(new RegExp(`^${stack.baseUrl}/boutique/${shop.scanUid}\\?t=[0-9a-z]+\\.[A-Za-z0-9_-]{16}$`));
    await eventually(() => page.getByText(/Nouveau code dans \d+ s/).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "counter-reader-portrait");

    // A shopper's phone opens what it reads: the visit is credited.
    const shopper = await stack.createUser();
    const phone = await stack.newContext();
    await stack.signIn(phone, shopper.email, shopper.password);
    const phonePage = await phone.newPage();
    await phonePage.goto(url);
    await eventually(() => soleHeading(phonePage)).toBe("Passage validé !");
    await phone.close();

    // The code on screen changes with the next 30 s step, by itself.
    await eventually(() => readCounterQr(page, shop.name)).not.toBe(url);

    // A phone or tablet turned sideways: the code and the shop side by side, still readable.
    await page.setViewportSize({ width: 844, height: 390 });
    expect(await readCounterQr(page, shop.name)).toMatch(new RegExp(`/boutique/${shop.scanUid}\\?t=`));
    await snap(page, "counter-reader-landscape");
    await page.setViewportSize({ width: 1180, height: 820 });
    await snap(page, "counter-reader-tablet");
    await context.close();
  });

  it("/manager credits a visit by the customer's personal code (then e-mail), lists today's scans, and corrects a mistake with a reason", async () => {
    const { shop, employee, context } = await counterSetup("Épicerie Soleil");
    const customer = await stack.createUser({ firstName: "Camille", lastName: "Martin" });
    const page = await context.newPage();
    await page.goto("/manager");
    await eventually(() => soleHeading(page)).toBe("Comptoir");
    await eventually(() => page.getByText("Aucun passage pour l'instant aujourd'hui.").isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "counter-manager-empty");
    expect(await page.getByRole("link", { name: /Afficher le code du comptoir/ }).getAttribute("href")).toBe(`/reader?boutique=${shop.id}`);

    // The customer shows « Ma carte client » from Mes cartes.
    const phoneContext = await stack.newContext();
    await stack.signIn(phoneContext, customer.email, customer.password);
    const phone = await phoneContext.newPage();
    await phone.goto("/cartes-de-fidelite");
    const myCard = phone.getByRole("region", { name: "Ma carte client" });
    await myCard.getByRole("button", { name: /Ma carte client/ }).click();
    const shown = myCard.getByTestId("personal-code");
    await eventually(() => shown.isVisible()).toBe(true);
    const personalCode = ((await shown.locator('[aria-hidden="true"]').textContent()) ?? "").trim();
    expect(personalCode).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(await myCard.getByRole("img", { name: /QR code de ma carte client/ }).isVisible()).toBe(true);
    await expectAccessible(phone);
    await snap(phone, "cards-personal-code");
    await phoneContext.close();

    // An e-mail that is not a customer of the shop: one neutral answer, whoever it is.
    const credit = page.getByRole("region", { name: "Créditer un passage" });
    const emailField = credit.getByLabel("Ou e-mail d'un client de la boutique");
    const codeField = credit.getByLabel("Code client", { exact: true });
    await emailField.fill(customer.email);
    await credit.getByRole("button", { name: "Créditer le passage" }).click();
    await eventually(() => credit.getByText("Aucun client de votre boutique avec cette adresse.", { exact: false }).isVisible()).toBe(true);

    // The code, typed loosely where staff validate rewards: 8 characters open the counter with it filled in, and
    // the visit is credited (the card made).
    await page.goto("/validate-reward");
    await eventually(() => soleHeading(page)).toBe("Valider une récompense");
    await page.getByLabel("Code de la récompense (6 caractères)").fill(personalCode.toLowerCase().replace("-", " "));
    await page.getByRole("button", { name: "Rechercher le code" }).click();
    await eventually(() => soleHeading(page)).toBe("Comptoir");
    expect(new URL(page.url()).searchParams.get("client")).toBe(personalCode.replace("-", ""));
    await eventually(() => codeField.inputValue()).toBe(personalCode.replace("-", ""));
    await credit.getByRole("button", { name: "Créditer le passage" }).click();
    await eventually(() => credit.getByText(`Camille Martin : 1 tampon ajouté chez ${shop.name}. Merci de votre visite !`).isVisible()).toBe(true);
    // Twice in a row, now by e-mail (a customer now): the cooldown applies to visits typed at the counter too.
    await credit.getByRole("button", { name: "Créditer le passage" }).waitFor();
    await codeField.fill("");
    await emailField.fill(customer.email);
    await credit.getByRole("button", { name: "Créditer le passage" }).click();
    await eventually(() => credit.getByText(`Camille Martin : Votre passage chez ${shop.name} a déjà été crédité récemment.`, { exact: false }).isVisible()).toBe(true);

    const todayList = page.getByRole("region", { name: "Passages du jour" });
    await eventually(() => todayList.getByText("1 passage crédité aujourd'hui, 1 refusé.").isVisible()).toBe(true);
    expect(await todayList.getByRole("listitem").first().textContent()).toContain("Camille Martin");
    expect(await todayList.getByText("Saisi par l'équipe", { exact: false }).count()).toBe(2);
    await snap(page, "counter-manager-credited");

    // Correct it: from the row, the customer is looked up; the balance cannot go below zero; a reason is kept.
    await todayList.getByRole("button", { name: "Corriger" }).first().click();
    const correction = page.getByRole("region", { name: "Corriger une erreur" });
    await eventually(() => correction.getByText("Solde : 1", { exact: false }).isVisible()).toBe(true);
    await correction.getByLabel("À ajouter ou retirer").fill("-2");
    await correction.getByLabel("Motif").fill("Passage crédité par erreur");
    await correction.getByRole("button", { name: "Enregistrer la correction" }).click();
    await eventually(() => correction.getByText("Le solde ne peut pas devenir négatif (solde actuel : 1).").isVisible()).toBe(true);
    await correction.getByLabel("À ajouter ou retirer").fill("-1");
    await correction.getByRole("button", { name: "Enregistrer la correction" }).click();
    await eventually(() => correction.getByText(/Correction enregistrée \([−-]1\) pour Camille Martin\. Nouveau solde : 0\./).isVisible()).toBe(true);
    await expectAccessible(page);
    await snap(page, "counter-manager-corrected", { fullPage: true });

    // A member's correction moves the balance only (issue 22 row 17: VIP levels stay the owner's to grant).
    const adjustments = await stack.deps.db
      .select({ delta: ledgerEntries.delta, reason: ledgerEntries.reason, actorId: ledgerEntries.actorId })
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.shopId, shop.id), eq(ledgerEntries.kind, "adjustment_balance")));
    expect(adjustments).toEqual([{ delta: -1, reason: "Passage crédité par erreur", actorId: employee.id }]);
    const recorded = await stack.deps.db.select({ outcome: scans.outcome, method: scans.method }).from(scans).where(eq(scans.userId, customer.id));
    expect(recorded.map((r) => [r.outcome, r.method]).sort()).toEqual([
      ["accepted", "staff"],
      ["cooldown", "staff"],
    ]);
    await context.close();
  });

  it("is for shop staff only: a shopper is refused /reader and /manager", async () => {
    const shopper = await stack.createUser();
    const context = await stack.newContext();
    await stack.signIn(context, shopper.email, shopper.password);
    const page = await context.newPage();
    for (const path of ["/reader", "/manager"]) {
      await page.goto(path);
      await eventually(() => page.locator("main h1").textContent()).toContain("Accès refusé");
    }
    await context.close();
  });
});
