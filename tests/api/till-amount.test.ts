import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pointsForAmount } from "../../src/domain/loyalty/amount.ts";
import { ledgerEntries, scans } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 29, item 1: a points card that earns by the amount spent, under the same rules as a visit. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function amountShop(rounding: "down" | "nearest" | "up" = "down", pointsPerEuro = 1) {
  const { shop, owner } = await shopWithOwner(t, {
    name: "Épicerie Lune",
    rules: { mode: "points", pointsPerVisit: 10 },
  });
  const settings = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/card`)).json()).card;
  const { summary: _s, shop: _shop, adjustmentCap: _c, rewardsOffered: _r, hasReceiptKey: _k, ...rules } = settings;
  const put = await owner.client.request(`/api/backoffice/shops/${shop.id}/card`, {
    method: "PUT",
    json: { ...rules, earnBy: "amount", pointsPerEuro, amountRounding: rounding },
  });
  expect(put.status).toBe(200);
  return { shop, owner, card: (await put.json()).card };
}

async function personalCodeOf(client: ReturnType<TestApp["client"]>) {
  return (await (await client.request("/api/cards/personal-code")).json()).personalCode.code as string;
}

describe("points by amount", () => {
  it("the rule: cents × points per euro, rounded as the card states", () => {
    expect(pointsForAmount(1250, 1, "down")).toBe(12);
    expect(pointsForAmount(1250, 1, "nearest")).toBe(13);
    expect(pointsForAmount(1249, 1, "nearest")).toBe(12);
    expect(pointsForAmount(1201, 1, "up")).toBe(13);
    expect(pointsForAmount(1250, 2, "down")).toBe(25);
    expect(pointsForAmount(99, 1, "down")).toBe(0);
  });

  it("the card states its rule and rounding", async () => {
    const { card } = await amountShop("nearest", 2);
    expect(card.summary).toContain("2 points par euro dépensé, arrondi au point le plus proche");
  });

  it("staff credit an amount at the counter: points by amount, same cooldown, append-only ledger, once per key", async () => {
    const { shop, owner } = await amountShop("down");
    const customer = await signedIn(t);
    const code = await personalCodeOf(customer.client);
    const key = newKey();
    const credit = (json: object) => owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, { json });
    const first = await credit({ code, amountCents: 2399, idempotencyKey: key });
    expect(first.status).toBe(200);
    const body = await first.json();
    expect(body).toMatchObject({ outcome: "accepted", delta: 23, amountCents: 2399, card: { balance: 23 } });
    expect(body.message).toBe("23 points ajoutés chez Épicerie Lune. Merci de votre visite !");

    const again = await credit({ code, amountCents: 2399, idempotencyKey: key });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const cooldown = await (await credit({ code, amountCents: 1000, idempotencyKey: newKey() })).json();
    expect(cooldown).toMatchObject({ outcome: "cooldown", delta: 0 });

    const rows = await t.deps.db.select().from(scans).where(eq(scans.shopId, shop.id));
    expect(rows.map((r) => [r.outcome, r.method, r.amountCents]).sort()).toEqual([
      ["accepted", "staff", 2399],
      ["cooldown", "staff", 1000],
    ]);
    const ledger = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.shopId, shop.id));
    expect(ledger.map((e) => [e.kind, e.delta])).toEqual([["scan", 23]]);
  });

  it("without an amount, staff are asked for one; a shopper's scan of the counter code is refused with why", async () => {
    const { shop, owner } = await amountShop();
    const customer = await signedIn(t);
    const code = await personalCodeOf(customer.client);
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, {
      json: { code, idempotencyKey: newKey() },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).fields.amountCents).toContain("Saisissez le montant");
    const scanned = await scan(customer.client, t.deps.db, shop.id);
    expect(scanned.body).toMatchObject({ outcome: "amount_required", accepted: false, delta: 0 });
    expect(scanned.body.message).toContain("selon le montant de vos achats");
    // The refusal did not start a cooldown.
    const ok = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, {
      json: { code, amountCents: 500, idempotencyKey: newKey() },
    });
    expect((await ok.json()).outcome).toBe("accepted");
  });

  it("an amount worth no point is a clear 400; a visit card ignores the amount and credits its visit", async () => {
    const { shop, owner } = await amountShop();
    const customer = await signedIn(t);
    const code = await personalCodeOf(customer.client);
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, {
      json: { code, amountCents: 50, idempotencyKey: newKey() },
    });
    expect(res.status).toBe(400);
    expect((await res.json()).message).toBe("Ce montant ne suffit pas pour gagner un point.");

    const visits = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10 } });
    const byVisit = await visits.owner.client.request(`/api/backoffice/shops/${visits.shop.id}/credit`, {
      json: { code, amountCents: 5000, idempotencyKey: newKey() },
    });
    expect(await byVisit.json()).toMatchObject({ outcome: "accepted", delta: 10 });
  });

  it("double points multiply the amount's points", async () => {
    const { shop, owner } = await amountShop();
    await owner.client.request(`/api/backoffice/shops/${shop.id}/double-points`, {
      json: { label: "Soldes", multiplier: 2 },
    });
    const customer = await signedIn(t);
    const code = await personalCodeOf(customer.client);
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/credit`, {
      json: { code, amountCents: 1000, idempotencyKey: newKey() },
    });
    expect(await res.json()).toMatchObject({ outcome: "accepted", delta: 20, multiplier: 2 });
  });
});
