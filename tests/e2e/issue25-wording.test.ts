import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward, grantPoints } from "../../src/server/db/factories.ts";
import { doublePointsPeriods } from "../../src/server/db/schema/index.ts";
import { tokenFor } from "../api/shops-helpers.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack, unique } from "../setup/e2e.ts";

/**
 * Issue 25 at 390×844, what screens say: the scan's answer names the next reward as the card does everywhere (row 12),
 * and the wording of row 13.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

/** Scans the counter's code of the moment, as a phone camera opens it. */
async function scanAt(page: Page, shopId: string) {
  const { scanUid, token } = await tokenFor(stack.deps.db, shopId);
  await page.goto(`/boutique/${scanUid}?t=${encodeURIComponent(token)}`);
}

describe("issue 25 row 12: the scan's answer", () => {
  it("issue 25 row 12: after a scan, the card names the next reward (« encore un tampon »), never « Plus que … » beside ready rewards; without a catalogue « Plus qu'un tampon »; a visitor's scan shows no card", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    const shop = await stack.createShop(owner.id, { name: `Boulangerie ${unique()}` });
    await createReward(stack.deps, { shopId: shop.id, title: "Café offert", cost: 3 });
    await createReward(stack.deps, { shopId: shop.id, title: "Croissant offert", cost: 5, position: 1 });
    await createReward(stack.deps, { shopId: shop.id, title: "Tarte offerte", cost: 10, position: 2 });
    const plain = await stack.createShop(owner.id, { name: `Fleuriste ${unique()}` });
    const shopper = await stack.createUser({ firstName: "Jade" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 8 });
    await grantPoints(stack.deps, { shopId: plain.id, userId: shopper.id, points: 8 });

    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await scanAt(page, shop.id);
    await eventually(() => heading(page)).toBe("Passage validé !");
    const line = page.getByTestId("card-rewards");
    await eventually(() => line.textContent()).toBe(
      "2 récompenses disponibles · Prochaine récompense : Tarte offerte (encore un tampon)",
    );
    expect(await page.getByText(/Plus que|Plus qu'un/).count()).toBe(0);
    await expectAccessible(page);
    await snap(page, "issue25-row12-scan-answer");

    // A shop without a catalogue: the card counts what is left, « un » for one.
    await scanAt(page, plain.id);
    await eventually(() => heading(page)).toBe("Passage validé !");
    await eventually(() => page.getByText("Plus qu'un tampon avant votre récompense.").isVisible()).toBe(true);
    expect(await page.getByText("Plus que 1 tampon").count()).toBe(0);
    expect(await page.getByTestId("card-rewards").count()).toBe(0);
    await context.close();

    // A visitor scanning the code is asked to sign in first: no card, no sentence about rewards.
    const visitor = await stack.newContext();
    const anon = await visitor.newPage();
    await scanAt(anon, shop.id);
    await anon.waitForURL((url) => url.pathname === "/scanner-auth");
    expect(await anon.getByText(/Prochaine récompense|Plus que|Plus qu'un/).count()).toBe(0);
    await visitor.close();
  });
});

describe("issue 25 row 13: the card's own unit", () => {
  it("issue 25 row 13: a stamp card's double visit says « Tampons ×2 » on the scan and the shop page, never « points »", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    const stamps = await stack.createShop(owner.id, { name: `Pâtisserie ${unique()}` });
    await stack.deps.db
      .insert(doublePointsPeriods)
      .values({ shopId: stamps.id, label: "Mercredi gourmand", multiplier: 2 });
    const shopper = await stack.createUser({ firstName: "Jade" });
    const context = await stack.signedIn(shopper);
    const page = await context.newPage();
    await scanAt(page, stamps.id);
    await eventually(() => heading(page)).toBe("Passage validé !");
    await eventually(() => page.getByRole("status").first().textContent()).toBe(
      `Tampons ×2 ! 2 tampons ajoutés chez ${stamps.name}.`,
    );
    expect(await page.getByText("Tampons ×2 · Mercredi gourmand").isVisible()).toBe(true);
    expect(await page.locator("main").textContent()).not.toMatch(/points?\b/i);
    await snap(page, "issue25-row13-stamps-doubled");

    await page.goto(`/shop/${stamps.slug}`);
    await eventually(() => heading(page)).toBe(stamps.name);
    await eventually(() => page.getByText("Tampons ×2 en ce moment !").isVisible()).toBe(true);
    expect(await page.getByText(/Points ×/).count()).toBe(0);
    await context.close();
  });
});

describe("issue 25 row 13: words for everyone, one word per meaning, no bare numbers", () => {
  it("issue 25 row 13: Léa is « Membre de l'équipe », the counter's day is a sentence, a lot is archived with « Archiver », cards count in their unit; a shopper sees no team word", async () => {
    const owner = await stack.createUser({ firstName: "Odile" });
    const shop = await stack.createShop(owner.id, { name: `Épicerie ${unique()}` });
    const lea = await stack.createUser({ firstName: "Léa" });
    await addStaff(stack.deps, shop.id, lea.id, "member");
    const shopper = await stack.createUser({ firstName: "Jade" });
    await grantPoints(stack.deps, { shopId: shop.id, userId: shopper.id, points: 2 });

    // Léa's own profile and the counter before any visit today.
    const staff = await stack.signedIn(lea);
    const page = await staff.newPage();
    await page.goto("/admin/monprofil");
    await eventually(() => heading(page)).toBe("Mon profil");
    await eventually(() => page.getByText("Membre de l'équipe", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByText(/[ÉéE]quipier|Gérant/).count()).toBe(0);
    await page.goto("/manager");
    await eventually(() => page.getByText("Aucun passage pour l'instant aujourd'hui.").isVisible()).toBe(true);
    expect(await page.getByText(/\b0 passage/).count()).toBe(0);
    await snap(page, "issue25-row13-counter-empty");

    // A visit, then the day in words.
    const phone = await stack.signedIn(shopper);
    const shopperPage = await phone.newPage();
    await scanAt(shopperPage, shop.id);
    await eventually(() => heading(shopperPage)).toBe("Passage validé !");
    await page.reload();
    await eventually(() => page.getByText("1 passage crédité aujourd'hui.", { exact: true }).isVisible()).toBe(true);
    await expectAccessible(page);
    await staff.close();

    // The shopper's own profile counts in stamps and visits, never « 3 · 1 passage »; no team word anywhere.
    await shopperPage.goto(`/profile/${shopper.id}`);
    await eventually(() => shopperPage.getByText("3 tampons · 1 passage", { exact: true }).isVisible()).toBe(true);
    await shopperPage.goto("/profil");
    await eventually(() => heading(shopperPage)).toContain("Jade");
    expect(await shopperPage.getByText(/Membre de l'équipe|[ÉéE]quipier|Gérant/).count()).toBe(0);
    await phone.close();

    // The owner: the team names Léa's role the same way; the customer's balance and its correction in stamps; a lot
    // is archived with « Archiver » (« retirer » is what a winner does with a lot).
    const boss = await stack.signedIn(owner);
    const ownerPage = await boss.newPage();
    await ownerPage.goto("/admin/invitation");
    await eventually(() =>
      ownerPage
        .getByText(/^Membre de l'équipe · /)
        .first()
        .isVisible(),
    ).toBe(true);
    await ownerPage.goto(`/profile/${shopper.id}`);
    await eventually(() => ownerPage.getByText("3 tampons", { exact: true }).first().isVisible()).toBe(true);
    expect(await ownerPage.getByLabel("Tampons à ajouter (ou retirer avec -)").isVisible()).toBe(true);
    const res = await boss.request.post(`${stack.baseUrl}/api/backoffice/shops/${shop.id}/prize-lots`, {
      data: { name: "Panier garni", valueCents: 4500, quantity: 1, handover: "counter", claimDays: 15 },
      headers: { origin: stack.baseUrl },
    });
    expect(res.status(), await res.text()).toBeLessThan(300);
    await ownerPage.goto("/admin/gestion-des-lots");
    await eventually(() => ownerPage.getByRole("button", { name: "Archiver Panier garni" }).isVisible()).toBe(true);
    expect(await ownerPage.getByRole("button", { name: /Retirer/ }).count()).toBe(0);
    await expectAccessible(ownerPage);
    await snap(ownerPage, "issue25-row13-lots-archive");
    await boss.close();
  });
});
