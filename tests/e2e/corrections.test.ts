import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, grantPoints } from "../../src/server/db/factories.ts";
import { cards, shops } from "../../src/server/db/schema/index.ts";
import { eventually, expectAccessible, heading, snap, type Stack, startStack } from "../setup/e2e.ts";

/** Issue 22, row 17 (ADR 0036): the owner sees the team's corrections and approves one that waits. */

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

async function adjust(context: BrowserContext, shopId: string, cardId: string, delta: number, reason: string) {
  const res = await context.request.post(`${stack.baseUrl}/api/backoffice/shops/${shopId}/adjust`, {
    data: { cardId, delta, reason, idempotencyKey: randomUUID() },
    headers: { origin: stack.baseUrl },
  });
  return res.status();
}

describe("corrections: the owner's feed", () => {
  it("issue 22 row 17: the owner sees the team's corrections, the unusual one flagged, and approves the one that waits", async () => {
    const owner = await stack.createUser({ firstName: "Odile", lastName: "Marchand" });
    const shop = await stack.createShop(owner.id, { name: `Fournil ${randomUUID().slice(0, 6)}` });
    const employee = await stack.createUser({ firstName: "Hugo", lastName: "Lemoine" });
    await addStaff(stack.deps, shop.id, employee.id, "member");
    const customer = await stack.createUser({ firstName: "Camille", lastName: "Martin" });
    const { cardId } = await grantPoints(stack.deps, { shopId: shop.id, userId: customer.id, points: 3 });

    // At the counter: one stamp forgotten (within a visit's worth: applied), then +5 (waits for the owner).
    const counter = await stack.newContext();
    await stack.signIn(counter, employee.email, employee.password);
    expect(await adjust(counter, shop.id, cardId, 1, "Tampon oublié")).toBe(201);
    expect(await adjust(counter, shop.id, cardId, 5, "Carte papier perdue")).toBe(202);
    await counter.close();

    const context = await stack.newContext();
    await stack.signIn(context, owner.email, owner.password);
    const page = await context.newPage();
    await page.goto("/admin/liste-scans");
    await eventually(() => heading(page)).toBe("Passages");
    const feed = page.getByRole("region", { name: "Corrections de solde" });
    await eventually(() => feed.getByText("1 correction attend votre accord.").isVisible()).toBe(true);
    const items = feed.getByRole("list", { name: "Corrections" }).getByRole("listitem");
    expect(await items.count()).toBe(2);
    const waiting = items.first();
    expect(await waiting.textContent()).toContain("Camille Martin");
    expect(await waiting.textContent()).toContain("« Carte papier perdue »");
    expect(await waiting.textContent()).toContain("À vérifier : au-delà du plafond de l'équipe (1 tampon)");
    expect(await waiting.textContent()).toContain("Par Hugo Lemoine (membre de l'équipe)");
    expect(await waiting.textContent()).toContain("En attente de validation");
    expect(await items.nth(1).textContent()).toContain("Appliquée");
    await expectAccessible(page);
    await snap(page, "corrections-feed-waiting", { fullPage: true });

    await waiting.getByRole("button", { name: "Valider" }).click();
    await eventually(() => feed.getByText("Aucune correction en attente.").isVisible()).toBe(true);
    expect(await items.first().textContent()).toContain("Validée par Odile Marchand");
    expect(await feed.getByRole("button", { name: "Valider" }).count()).toBe(0);
    const [card] = await stack.deps.db
      .select({ balance: cards.balance, lifetime: cards.lifetime })
      .from(cards)
      .where(eq(cards.id, cardId));
    // 3 + 1 + 5 on the balance; the lifetime total keeps the 3 earned (the owner did not let corrections count).
    expect(card).toEqual({ balance: 9, lifetime: 3 });
    await snap(page, "corrections-feed-approved", { fullPage: true });

    // The owner sets the team's cap in the card settings: 2 stamps, 1 a day, counting for VIP levels.
    await page.goto("/admin/creativcard");
    await eventually(() => heading(page)).toBe("Carte et règles");
    const settings = page.getByRole("group", { name: "Corrections de solde par l'équipe" });
    await settings.getByLabel("Correction la plus forte permise à un membre de l'équipe").fill("2");
    await settings.getByLabel("Corrections par membre de l'équipe et par jour, sans accord").fill("1");
    await settings.getByLabel("Les corrections de l'équipe comptent pour les niveaux VIP").check({ force: true });
    // Centred in the viewport, below the sticky admin bar.
    await settings.evaluate((el) => el.scrollIntoView({ block: "center", behavior: "instant" }));
    await page.screenshot({ path: "test-results/screens/corrections-card-settings.png" });
    await page.getByRole("button", { name: "Enregistrer la carte" }).click();
    await eventually(async () => {
      const [row] = await stack.deps.db
        .select({
          limit: shops.adjustmentLimit,
          perDay: shops.staffAdjustmentsPerDay,
          vip: shops.staffAdjustmentsLifetime,
        })
        .from(shops)
        .where(eq(shops.id, shop.id));
      return row;
    }).toEqual({ limit: 2, perDay: 1, vip: true });
    await context.close();
  });
});
