import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, grantPoints } from "../../src/server/db/factories.ts";
import { cards, ledgerEntries } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, newKey, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 22, row 17 (ADR 0036): a team member's corrections are capped (a visit's worth, 3 a day by default), never
 * on the lifetime total unless the owner allows it; every correction is in the owner's feed with its alerts; beyond
 * the cap a request waits for the owner or a manager, whose approval moves the points exactly once.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type FeedItem = {
  id: string;
  delta: number;
  reason: string;
  status: string;
  statusLabel: string;
  countsLifetime: boolean;
  alerts: string[];
  alertLabels: string[];
  author: { id: string; name: string; roleLabel: string | null };
  decidedBy: string | null;
  customer: { id: string | null; name: string; email: string | null };
};
type Feed = {
  rules: { cap: number; perDay: number; countsLifetime: boolean };
  pending: number;
  adjustments: FeedItem[];
};

/** A points shop (10 a visit) with a member, a manager and a customer holding 5 points. */
async function world() {
  const { shop, owner } = await shopWithOwner(t, {
    rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
  });
  const member = await signedIn(t, { firstName: "Inès", lastName: "Caisse" });
  await addStaff(t.deps, shop.id, member.user.id, "member");
  const manager = await signedIn(t, { firstName: "Marc", lastName: "Gérant" });
  await addStaff(t.deps, shop.id, manager.user.id, "admin");
  const customer = await signedIn(t, { firstName: "Léa", lastName: "Cliente" });
  const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: customer.user.id, points: 5 });
  const base = `/api/backoffice/shops/${shop.id}`;
  const adjust = (client: Client, delta: number, id = cardId, reason = "Achat oublié", idempotencyKey = newKey()) =>
    client.request(`${base}/adjust`, { json: { cardId: id, delta, reason, idempotencyKey } });
  const feed = async (client: Client = owner.client, query = "") => {
    const res = await client.request(`${base}/adjustments${query}`);
    expect(res.status).toBe(200);
    return (await res.json()) as Feed;
  };
  const decide = (client: Client, id: string, verb: "approve" | "refuse") =>
    client.request(`${base}/adjustments/${id}/${verb}`, { method: "POST", json: {} });
  return { shop, owner, member, manager, customer, cardId, base, adjust, feed, decide };
}

async function cardOf(cardId: string) {
  const [row] = await t.deps.db
    .select({ balance: cards.balance, lifetime: cards.lifetime })
    .from(cards)
    .where(eq(cards.id, cardId));
  return row;
}

async function ledgerCount(cardId: string) {
  const rows = await t.deps.db
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(sql`${ledgerEntries.cardId} = ${cardId} and ${ledgerEntries.kind} in ('adjustment', 'adjustment_balance')`);
  return rows.length;
}

async function updateSettings(w: Awaited<ReturnType<typeof world>>, patch: Record<string, unknown>) {
  const settings = (await (await w.owner.client.request(`${w.base}/card`)).json()).card;
  const { summary: _s, shop: _shop, adjustmentCap: _c, ...body } = settings;
  const res = await w.owner.client.request(`${w.base}/card`, { method: "PUT", json: { ...body, ...patch } });
  expect(res.status).toBe(200);
  return (await res.json()).card;
}

describe("issue 22 row 17: corrections are the owner's to see and bound", () => {
  it("issue 22 row 17: a member's +50 on a customer's card is not applied: it becomes a request waiting in the owner's feed", async () => {
    const w = await world();
    const res = await w.adjust(w.member.client, 50);
    expect(res.status).toBe(202);
    const body = await res.json();
    expect(body).toMatchObject({
      status: "pending",
      adjustment: { delta: 50, statusLabel: "En attente de validation" },
      entry: null,
    });
    expect(await cardOf(w.cardId)).toEqual({ balance: 5, lifetime: 5 });
    expect(await ledgerCount(w.cardId)).toBe(0);

    const feed = await w.feed();
    expect(feed.pending).toBe(1);
    expect(feed.rules).toEqual({ cap: 10, perDay: 3, countsLifetime: false });
    expect(feed.adjustments[0]).toMatchObject({
      delta: 50,
      status: "pending",
      reason: "Achat oublié",
      alerts: ["over_cap"],
      author: { id: w.member.user.id, name: "Inès Caisse", roleLabel: "Membre de l'équipe" },
      customer: { id: w.customer.user.id, name: "Léa Cliente", email: w.customer.user.email },
    });
    expect(feed.adjustments[0]?.alertLabels).toEqual(["au-delà du plafond de l'équipe (10 points)"]);
    // A member sees no feed and decides nothing.
    expect((await w.member.client.request(`${w.base}/adjustments`)).status).toBe(403);
    expect((await w.decide(w.member.client, body.adjustment.id, "approve")).status).toBe(403);
    expect(await cardOf(w.cardId)).toEqual({ balance: 5, lifetime: 5 });
  });

  it("issue 22 row 17: a member within the cap is applied at once, on the balance only, and appears in the owner's feed", async () => {
    const w = await world();
    const res = await w.adjust(w.member.client, 10);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      status: "applied",
      entry: { kind: "adjustment_balance", delta: 10, kindLabel: "Correction par la boutique" },
      card: { balance: 15, lifetime: 5 },
    });
    const minus = await w.adjust(w.member.client, -10);
    expect(minus.status).toBe(201);
    expect(await cardOf(w.cardId)).toEqual({ balance: 5, lifetime: 5 });

    const feed = await w.feed();
    expect(feed.pending).toBe(0);
    expect(feed.adjustments.map((a) => [a.delta, a.status, a.author.name, a.countsLifetime, a.alerts])).toEqual([
      [-10, "applied", "Inès Caisse", false, []],
      [10, "applied", "Inès Caisse", false, []],
    ]);
    // The manager sees the same feed.
    expect((await w.feed(w.manager.client)).adjustments).toHaveLength(2);
  });

  it("issue 22 row 17: the lifetime total moves for a member's correction only once the owner allows it", async () => {
    const w = await world();
    expect((await w.adjust(w.member.client, 10)).status).toBe(201);
    expect(await cardOf(w.cardId)).toEqual({ balance: 15, lifetime: 5 });
    const saved = await updateSettings(w, { staffAdjustmentsLifetime: true });
    expect(saved.staffAdjustmentsLifetime).toBe(true);
    expect((await w.adjust(w.member.client, 10)).status).toBe(201);
    expect(await cardOf(w.cardId)).toEqual({ balance: 25, lifetime: 15 });
    // The owner's own corrections move it as they always did.
    expect((await w.adjust(w.owner.client, 100, w.cardId, "Carte papier reprise")).status).toBe(201);
    expect(await cardOf(w.cardId)).toEqual({ balance: 125, lifetime: 115 });
  });

  it("issue 22 row 17: the day's count holds, in a row and with 8 corrections sent at once", async () => {
    const w = await world();
    const first = await Promise.all(Array.from({ length: 8 }, () => w.adjust(w.member.client, 1)));
    const statuses = first.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 202, 202, 202, 202, 202]);
    expect(await cardOf(w.cardId)).toEqual({ balance: 8, lifetime: 5 });
    expect(await ledgerCount(w.cardId)).toBe(3);
    // The next one waits too, and the feed flags the ones beyond the count.
    expect((await w.adjust(w.member.client, 1)).status).toBe(202);
    const feed = await w.feed(w.owner.client, "?alerts=1");
    expect(feed.pending).toBe(6);
    expect(feed.adjustments).toHaveLength(6);
    expect(feed.adjustments.every((a) => a.alerts.includes("many_today") && a.status === "pending")).toBe(true);

    // The owner lowers the count to 0: every member correction waits.
    const other = await world();
    await updateSettings(other, { staffAdjustmentsPerDay: 0, adjustmentLimit: 50 });
    expect((await other.adjust(other.member.client, 1)).status).toBe(202);
    // And with a limit of 50, +50 is within the cap once the count allows it.
    await updateSettings(other, { staffAdjustmentsPerDay: 3 });
    expect((await other.adjust(other.member.client, 50)).status).toBe(201);
    expect((await other.adjust(other.member.client, 51)).status).toBe(202);
    // Back to a visit's worth: an empty limit.
    expect((await updateSettings(other, { adjustmentLimit: "" })).adjustmentCap).toBe(10);
  });

  it("issue 22 row 17: the owner's approval moves the points exactly once, even with two approvals at once", async () => {
    const w = await world();
    const { adjustment } = await (await w.adjust(w.member.client, 50)).json();
    const [a, b] = await Promise.all([
      w.decide(w.owner.client, adjustment.id, "approve"),
      w.decide(w.manager.client, adjustment.id, "approve"),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 409]);
    const loser = a.status === 409 ? a : b;
    expect((await loser.json()).message).toBe("Cette correction a déjà été traitée.");
    expect(await cardOf(w.cardId)).toEqual({ balance: 55, lifetime: 5 });
    expect(await ledgerCount(w.cardId)).toBe(1);
    // A later approval or refusal changes nothing.
    expect((await w.decide(w.owner.client, adjustment.id, "approve")).status).toBe(409);
    expect((await w.decide(w.owner.client, adjustment.id, "refuse")).status).toBe(409);
    expect(await cardOf(w.cardId)).toEqual({ balance: 55, lifetime: 5 });
    const [item] = (await w.feed()).adjustments;
    expect(item).toMatchObject({ id: adjustment.id, status: "applied" });
    expect(item?.decidedBy).toBeTruthy();

    // A request that would take the balance below zero is refused at once, as an applied correction would be.
    const tooMuch = await w.adjust(w.member.client, -56);
    expect(tooMuch.status).toBe(409);
    expect((await tooMuch.json()).message).toBe("Le solde ne peut pas devenir négatif (solde actuel : 55).");
    // A refusal moves nothing; another shop's owner cannot see or decide it.
    const { adjustment: second } = await (await w.adjust(w.member.client, -50)).json();
    const stranger = await shopWithOwner(t);
    expect(
      (await stranger.owner.client.request(`${w.base}/adjustments/${second.id}/approve`, { method: "POST", json: {} }))
        .status,
    ).toBe(404);
    const refused = await w.decide(w.manager.client, second.id, "refuse");
    expect(refused.status).toBe(200);
    expect((await refused.json()).adjustment.status).toBe("refused");
    expect(await cardOf(w.cardId)).toEqual({ balance: 55, lifetime: 5 });
  });

  it("issue 22 row 17: nobody corrects their own card, directly or by approving a request on it", async () => {
    const w = await world();
    for (const staff of [w.member, w.manager, w.owner]) {
      const { cardId } = await grantPoints(t.deps, { shopId: w.shop.id, userId: staff.user.id, points: 20 });
      const res = await w.adjust(staff.client, 1, cardId);
      expect(res.status).toBe(403);
      expect((await res.json()).message).toMatch(/propre carte/);
      expect(await cardOf(cardId)).toEqual({ balance: 20, lifetime: 20 });
    }
    // A member asks +50 on the manager's card: the manager cannot approve it, the owner can.
    const [managerCard] = await t.deps.db
      .select({ id: cards.id })
      .from(cards)
      .where(sql`${cards.userId} = ${w.manager.user.id} and ${cards.shopId} = ${w.shop.id}`);
    const ask = await w.adjust(w.member.client, 50, managerCard?.id);
    expect(ask.status).toBe(202);
    const { adjustment } = await ask.json();
    const own = await w.decide(w.manager.client, adjustment.id, "approve");
    expect(own.status).toBe(403);
    expect((await own.json()).message).toMatch(/propre carte/);
    expect((await w.decide(w.owner.client, adjustment.id, "approve")).status).toBe(200);
    expect(await cardOf(managerCard!.id)).toEqual({ balance: 70, lifetime: 20 });
  });

  it("issue 22 row 17: the feed flags unusual corrections: beyond the cap, beyond the day's count, a colleague's card", async () => {
    const w = await world();
    // A colleague's card: the member corrects the manager's card within the cap.
    const { cardId: managerCard } = await grantPoints(t.deps, {
      shopId: w.shop.id,
      userId: w.manager.user.id,
      points: 0,
    });
    expect((await w.adjust(w.member.client, 5, managerCard)).status).toBe(201);
    // The owner's large correction is applied and flagged.
    expect((await w.adjust(w.owner.client, 500, w.cardId, "Carte papier reprise")).status).toBe(201);
    const feed = await w.feed(w.owner.client, "?alerts=1");
    expect(feed.adjustments.map((a) => [a.delta, a.status, a.alerts])).toEqual([
      [500, "applied", ["over_cap"]],
      [5, "applied", ["team_card"]],
    ]);
    expect(feed.adjustments[1]?.alertLabels).toEqual(["carte d'un membre de l'équipe"]);
    // An ordinary one is not flagged.
    expect((await w.adjust(w.member.client, 2)).status).toBe(201);
    expect((await w.feed(w.owner.client, "?alerts=1")).adjustments).toHaveLength(2);
    expect((await w.feed()).adjustments).toHaveLength(3);
  });

  it("issue 22 row 17: a retry with the same key answers the first outcome and adds nothing", async () => {
    const w = await world();
    const key = newKey();
    const first = await w.adjust(w.member.client, 50, w.cardId, "Achat oublié", key);
    expect(first.status).toBe(202);
    const again = await w.adjust(w.member.client, 50, w.cardId, "Achat oublié", key);
    expect(again.status).toBe(200);
    expect(again.headers.get("Idempotent-Replayed")).toBe("true");
    expect((await again.json()).adjustment.id).toBe((await first.json()).adjustment.id);
    expect((await w.feed()).pending).toBe(1);
  });
});
