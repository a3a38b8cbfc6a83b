import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizeLedger } from "../../src/domain/loyalty/ledger.ts";
import { cards, ledgerEntries, scans } from "../../src/server/db/schema/index.ts";
import { findLedgerMismatches } from "../setup/ledger.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { LONG_TEST } from "../setup/timing.ts";
import { newKey, type ScanBody, shopWithOwner, signedIn, tokenFor } from "./shops-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe("200 concurrent scans of one shopper, 20 idempotency keys", () => {
  it("credit exactly what the rules allow, and every retry of a key gets the same answer", async () => {
    // 4 h cooldown, 2 a day: of 20 distinct attempts at once, exactly one can be credited.
    const { shop } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 240, dailyCap: 2 } });
    const { user, client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
    const keys = Array.from({ length: 20 }, () => newKey());
    const requests = Array.from({ length: 200 }, (_, i) => keys[i % 20]!);
    const answers = await Promise.all(
      requests.map(async (key) => {
        const res = await client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: key, deviceId: `device-${shop.id}` } });
        expect(res.status).toBe(200);
        return { key, body: (await res.json()) as ScanBody };
      }),
    );

    const byKey = new Map<string, ScanBody[]>();
    for (const a of answers) byKey.set(a.key, [...(byKey.get(a.key) ?? []), a.body]);
    for (const [, bodies] of byKey) {
      expect(bodies).toHaveLength(10);
      for (const b of bodies) expect(b).toEqual(bodies[0]);
    }
    const firstAnswers = [...byKey.values()].map((b) => b[0]!);
    expect(firstAnswers.filter((b) => b.accepted)).toHaveLength(1);
    expect(firstAnswers.filter((b) => b.outcome === "cooldown")).toHaveLength(19);

    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, user.id));
    expect(card).toMatchObject({ balance: 10, lifetime: 10, visits: 1 });
    const entries = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.cardId, card!.id));
    expect(entries).toHaveLength(1);
    // One recorded scan per key, not per request.
    const recorded = await t.deps.db.select({ n: sql<number>`count(*)::int` }).from(scans).where(eq(scans.userId, user.id));
    expect(recorded[0]!.n).toBe(20);
  }, LONG_TEST);

  it("with a daily cap of 3 and no cooldown, exactly 3 of 20 simultaneous attempts are credited", async () => {
    const { shop } = await shopWithOwner(t, { rules: { mode: "stamps", cooldownMinutes: 0, dailyCap: 3 } });
    const { user, client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
    const bodies = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const res = await client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: newKey() } });
        return (await res.json()) as ScanBody;
      }),
    );
    expect(bodies.filter((b) => b.accepted)).toHaveLength(3);
    expect(bodies.filter((b) => b.outcome === "daily_cap")).toHaveLength(17);
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, user.id));
    expect(card?.balance).toBe(3);
  });
});

describe("the ledger", () => {
  it("a card's balance equals the sum of its ledger, and a rebuild changes nothing", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 5, cooldownMinutes: 0, dailyCap: 20 } });
    const shoppers = await Promise.all([signedIn(t), signedIn(t), signedIn(t)]);
    for (const s of shoppers) {
      for (let i = 0; i < 3; i++) {
        const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
        await s.client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: newKey() } });
      }
    }
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, shoppers[0]!.user.id));
    const adjust = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId: card!.id, delta: -4, reason: "Passage crédité deux fois", idempotencyKey: newKey() },
    });
    expect(adjust.status).toBe(201);

    const all = await t.deps.db.select().from(cards).where(eq(cards.shopId, shop.id));
    for (const c of all) {
      const entries = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.cardId, c.id));
      expect(summarizeLedger(entries)).toEqual({ balance: c.balance, lifetime: c.lifetime });
    }
    expect(all.find((c) => c.id === card!.id)).toMatchObject({ balance: 11, lifetime: 11 });
    expect(await findLedgerMismatches(t.deps.db, shop.id)).toEqual([]);
  });

  it("cannot be updated, deleted or truncated through the app's database connection", async () => {
    const { shop } = await shopWithOwner(t);
    const { user, client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
    await client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: newKey() } });
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, user.id));
    const [entry] = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.cardId, card!.id));

    await expect(t.deps.db.update(ledgerEntries).set({ delta: 1000 }).where(eq(ledgerEntries.id, entry!.id))).rejects.toThrow();
    await expect(t.deps.db.delete(ledgerEntries).where(eq(ledgerEntries.id, entry!.id))).rejects.toThrow();
    await expect(t.deps.db.execute(sql`truncate ledger_entries`)).rejects.toThrow();
    await expect(t.deps.db.execute(sql`delete from ledger_entries`)).rejects.toThrow();
    const [still] = await t.deps.db.select().from(ledgerEntries).where(eq(ledgerEntries.id, entry!.id));
    expect(still).toEqual(entry);
  });

  it("refuses an entry whose shop is not the card's", async () => {
    const a = await shopWithOwner(t);
    const b = await shopWithOwner(t);
    const { user, client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, a.shop.id);
    await client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: newKey() } });
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, user.id));
    await expect(
      t.deps.db.insert(ledgerEntries).values({ cardId: card!.id, shopId: b.shop.id, kind: "bonus", delta: 50, actorId: user.id }),
    ).rejects.toThrow();
  });

  it("never lets a balance go below zero", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const { user, client } = await signedIn(t);
    const { scanUid, token } = await tokenFor(t.deps.db, shop.id);
    await client.request("/api/cards/scan", { json: { scanUid, token, idempotencyKey: newKey() } });
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, user.id));
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/adjust`, {
      json: { cardId: card!.id, delta: -5, reason: "Erreur de saisie", idempotencyKey: newKey() },
    });
    expect(res.status).toBe(409);
    expect((await res.json()).message).toBe("Le solde ne peut pas devenir négatif (solde actuel : 1).");
  });
});
