import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward, grantPoints } from "../../src/server/db/factories.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

/** Issue 16, item 7: /admin/{product} — one reward (its slug) or prize lot (`lot-<id>`) of the shop. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function world() {
  const a = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 } });
  const b = await shopWithOwner(t);
  const reward = await createReward(t.deps, { shopId: a.shop.id, title: "Café offert", cost: 10, stock: 5 });
  const customer = await signedIn(t, { firstName: "Inès", lastName: "Barthélemy" });
  await grantPoints(t.deps, { shopId: a.shop.id, userId: customer.user.id, points: 30 });
  await redeem(t.deps.database, customer.user.id, { rewardId: reward.id, idempotencyKey: randomUUID() });
  const lotRes = await a.owner.client.request(`/api/backoffice/shops/${a.shop.id}/prize-lots`, {
    json: { name: "Panier garni", description: null, valueCents: 2500, quantity: 3, handover: "counter", claimDays: 15 },
  });
  expect(lotRes.status).toBe(201);
  const lot = (await lotRes.json()).lot as { id: string };
  return { a, b, reward, customer, lot };
}

const productOf = (client: ReturnType<TestApp["client"]>, shopId: string, slug: string) =>
  client.request(`/api/backoffice/shops/${shopId}/products/${slug}`);

describe("/admin/{product}", () => {
  it("the owner sees a reward's figures: stock, redemptions per week, who took it", async () => {
    const { a, reward, customer } = await world();
    const res = await productOf(a.owner.client, a.shop.id, reward.slug);
    expect(res.status).toBe(200);
    const { product } = await res.json();
    expect(product).toMatchObject({ kind: "reward", slug: reward.slug, title: "Café offert", archived: false });
    expect(product.facts).toContainEqual({ label: "Stock", value: "4" });
    expect(product.facts).toContainEqual({ label: "En attente", value: "1" });
    expect(product.weeks).toHaveLength(12);
    expect(product.weeks.at(-1).count).toBe(1);
    expect(product.weeks.slice(0, -1).every((w: { count: number }) => w.count === 0)).toBe(true);
    expect(product.takers).toEqual([
      expect.objectContaining({ userId: customer.user.id, name: "Inès Barthélemy", statusLabel: "En attente de validation" }),
    ]);
    expect(product.editUrl).toBe(`/admin/ajouter-un-reward?id=${reward.id}`);
  });

  it("a prize lot is found by lot-<id>, with its stock", async () => {
    const { a, lot } = await world();
    const res = await productOf(a.owner.client, a.shop.id, `lot-${lot.id}`);
    expect(res.status).toBe(200);
    const { product } = await res.json();
    expect(product).toMatchObject({ kind: "lot", title: "Panier garni", takers: [] });
    expect(product.facts).toContainEqual({ label: "Restants", value: "3" });
    expect(product.editUrl).toBe(`/admin/gestion-des-lots?lot=${lot.id}`);
  });

  it("an unknown slug, another shop's product and a malformed one are the same 404 (or 400 for the malformed)", async () => {
    const { a, b, reward, lot } = await world();
    const unknown = await productOf(a.owner.client, a.shop.id, "nimporte-quoi-1234");
    expect(unknown.status).toBe(404);
    const unknownBody = await unknown.text();
    const theirs = await productOf(b.owner.client, b.shop.id, reward.slug);
    expect(theirs.status).toBe(404);
    expect(await theirs.text()).toBe(unknownBody);
    expect((await productOf(b.owner.client, b.shop.id, `lot-${lot.id}`)).status).toBe(404);
    // Their own shop's id with my reward: the shop guard answers (not a member) before any product is looked up.
    expect((await productOf(b.owner.client, a.shop.id, reward.slug)).status).toBe(404);
    expect((await productOf(a.owner.client, a.shop.id, "Pas%20un%20slug")).status).toBe(400);
  });

  it("is the owner's and the platform admin's: staff 403, a shopper 403, anonymous 401", async () => {
    const { a, reward } = await world();
    const staff = await signedIn(t);
    await addStaff(t.deps, a.shop.id, staff.user.id, "member");
    const shopper = await signedIn(t);
    const admin = await signedIn(t, { role: "admin" });
    expect((await productOf(staff.client, a.shop.id, reward.slug)).status).toBe(403);
    expect((await productOf(shopper.client, a.shop.id, reward.slug)).status).toBe(403);
    expect((await productOf(t.client(), a.shop.id, reward.slug)).status).toBe(401);
    expect((await productOf(admin.client, a.shop.id, reward.slug)).status).toBe(200);
  });

  it("archiving keeps the history, hides it from customers, is logged, and cannot be done twice", async () => {
    const { a, b, reward, lot } = await world();
    const other = await b.owner.client.request(`/api/backoffice/shops/${b.shop.id}/products/${reward.slug}/archive`, {
      method: "POST",
    });
    expect(other.status).toBe(404);
    const res = await a.owner.client.request(`/api/backoffice/shops/${a.shop.id}/products/${reward.slug}/archive`, {
      method: "POST",
    });
    expect(res.status).toBe(200);
    const { product } = await res.json();
    expect(product).toMatchObject({ archived: true, isActive: false });
    expect(product.takers).toHaveLength(1);
    const list = await (await a.owner.client.request(`/api/backoffice/shops/${a.shop.id}/rewards`)).json();
    expect(list.rewards.map((r: { id: string }) => r.id)).not.toContain(reward.id);
    const again = await a.owner.client.request(`/api/backoffice/shops/${a.shop.id}/products/${reward.slug}/archive`, {
      method: "POST",
    });
    expect(again.status).toBe(404);
    const lotArchive = await a.owner.client.request(`/api/backoffice/shops/${a.shop.id}/products/lot-${lot.id}/archive`, {
      method: "POST",
    });
    expect(lotArchive.status).toBe(200);
    const logged = await t.deps.db.execute<{ target: string; actor_id: string }>(
      sql`select target, actor_id from audit_log where action = 'catalogue.archive' and shop_id = ${a.shop.id} order by created_at`,
    );
    expect(logged.rows).toEqual([
      { target: reward.id, actor_id: a.owner.user.id },
      { target: lot.id, actor_id: a.owner.user.id },
    ]);
  });
});
