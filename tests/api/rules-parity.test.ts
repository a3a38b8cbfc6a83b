import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_KINDS, type LedgerKind, summarizeLedger } from "../../src/domain/loyalty/ledger.ts";
import {
  pickVisitMultiplier,
  type RedeemRefusal,
  type RewardRules,
  redeemRefusal,
  visitMultipliers,
} from "../../src/domain/loyalty/rewards.ts";
import { checkVisit } from "../../src/domain/loyalty/scan-rules.ts";
import { addDays, localParts } from "../../src/domain/loyalty/time.ts";
import type { Database } from "../../src/server/db/client.ts";
import { createReward, createShop, createUser, grantPoints } from "../../src/server/db/factories.ts";
import { cards, ledgerEntries, redemptions, shops } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";

/**
 * One table of cases per rule, run through the TypeScript rule (src/domain/loyalty) and through the
 * database function that applies it under a lock (src/server/db/functions/*.sql): a change to one side
 * alone fails here. Runs on PGlite, and on PostgreSQL with TEST_DATABASE_URL.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

async function callJson<T>(database: Database, text: string, values: unknown[]): Promise<T> {
  if (database.pool) return (await database.pool.query<{ r: T }>(text, values)).rows[0]!.r;
  return (await database.pglite!.query<{ r: T }>(text, values)).rows[0]!.r;
}

async function newShop(rules: { cooldownMinutes?: number; dailyCap?: number; mode?: "stamps" | "points" } = {}) {
  const owner = await createUser(t.deps, { withoutPassword: true });
  const shop = await createShop(t.deps, {
    ownerId: owner.id,
    rules: {
      mode: rules.mode ?? "points",
      pointsPerVisit: 10,
      cooldownMinutes: rules.cooldownMinutes ?? 240,
      dailyCap: rules.dailyCap ?? 2,
    },
  });
  return shop;
}

/** fidele_scan with a code already checked as valid, as scan.service.ts calls it. */
async function sqlScan(shop: { id: string; scanUid: string }, userId: string, multipliers: unknown[] = []) {
  const [row] = await t.deps.db.select({ v: shops.configVersion }).from(shops).where(eq(shops.id, shop.id));
  return callJson<{ outcome: string; nextAt: string | null; multiplier: number; periodLabel: string | null }>(
    t.deps.database,
    "select fidele_scan($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, null, null, null, null) as r",
    [
      userId,
      userId,
      shop.scanUid,
      randomUUID(),
      "rotating",
      "valid",
      row!.v,
      JSON.stringify(multipliers),
      false,
      null,
      3,
      7,
    ],
  );
}

describe("a visit: checkVisit ↔ fidele_scan", () => {
  const MIN = 60_000;
  type VisitCase = {
    name: string;
    cooldownMinutes: number;
    dailyCap: number;
    /** Minutes since the last credited visit (null: none). */
    lastAgo: number | null;
    /** Visits counted on the card's day, and whether that day is today (else yesterday). */
    dayCount: number;
    today?: boolean;
    timezone?: string;
  };
  const cases: VisitCase[] = [
    { name: "a first visit", cooldownMinutes: 240, dailyCap: 2, lastAgo: null, dayCount: 0 },
    { name: "inside the cooldown", cooldownMinutes: 240, dailyCap: 2, lastAgo: 10, dayCount: 1 },
    { name: "after the cooldown, under the cap", cooldownMinutes: 240, dailyCap: 3, lastAgo: 300, dayCount: 1 },
    { name: "the daily cap reached", cooldownMinutes: 30, dailyCap: 2, lastAgo: 60, dayCount: 2 },
    {
      name: "yesterday's count does not hold today",
      cooldownMinutes: 30,
      dailyCap: 2,
      lastAgo: 60,
      dayCount: 2,
      today: false,
    },
    { name: "no cooldown", cooldownMinutes: 0, dailyCap: 5, lastAgo: 1, dayCount: 1 },
    { name: "cap and a cooldown past midnight", cooldownMinutes: 1440, dailyCap: 1, lastAgo: 10, dayCount: 1 },
    {
      name: "another time zone",
      cooldownMinutes: 15,
      dailyCap: 3,
      lastAgo: 30,
      dayCount: 3,
      timezone: "Pacific/Auckland",
    },
  ];

  it.each(cases)("$name", async (c) => {
    const tz = c.timezone ?? "Europe/Paris";
    const shop = await newShop({ cooldownMinutes: c.cooldownMinutes, dailyCap: c.dailyCap });
    if (c.timezone) await t.deps.db.update(shops).set({ timezone: tz }).where(eq(shops.id, shop.id));
    const shopper = await createUser(t.deps, { withoutPassword: true });
    const now = new Date();
    const today = localParts(now, tz).date;
    const state = {
      lastScanAt: c.lastAgo === null ? null : new Date(now.getTime() - c.lastAgo * MIN),
      dayKey: c.dayCount > 0 ? (c.today === false ? addDays(today, -1) : today) : null,
      dayCount: c.dayCount,
    };
    await t.deps.db.insert(cards).values({ shopId: shop.id, userId: shopper.id, ...state });

    const ts = checkVisit(state, c, now, tz);
    const db = await sqlScan(shop, shopper.id);
    expect(db.outcome).toBe(ts.ok ? "accepted" : ts.reason);
    if (!ts.ok) expect(new Date(db.nextAt!).toISOString()).toBe(ts.nextAt.toISOString());
  });
});

describe("a visit's multiplier: visitMultipliers + pickVisitMultiplier ↔ fidele_scan", () => {
  const silverGold = [
    { name: "Argent", threshold: 100, multiplier: 2 },
    { name: "Or", threshold: 500, multiplier: 3 },
  ];
  const cases = [
    { name: "nothing", period: null, tiers: [], lifetime: 0 },
    { name: "a double-points period", period: { multiplier: 2, label: "Happy hour" }, tiers: [], lifetime: 0 },
    { name: "a VIP level", period: null, tiers: silverGold, lifetime: 150 },
    { name: "a tie: the period's words", period: { multiplier: 2, label: "Samedi" }, tiers: silverGold, lifetime: 150 },
    { name: "the better of the two", period: { multiplier: 2, label: "Samedi" }, tiers: silverGold, lifetime: 600 },
    { name: "below the first level", period: null, tiers: silverGold, lifetime: 99 },
    {
      name: "the current level only, not a better lower one",
      period: null,
      tiers: [
        { name: "Argent", threshold: 100, multiplier: 3 },
        { name: "Or", threshold: 500, multiplier: 1 },
      ],
      lifetime: 600,
    },
  ];

  it.each(cases)("$name", async (c) => {
    const shop = await newShop({ cooldownMinutes: 0, dailyCap: 10 });
    const shopper = await createUser(t.deps, { withoutPassword: true });
    // The lifetime through the ledger (a bonus), so that the card stays true to it.
    await grantPoints(t.deps, { shopId: shop.id, userId: shopper.id, points: c.lifetime });
    const candidates = visitMultipliers(c.period, c.tiers);

    const ts = pickVisitMultiplier(candidates, c.lifetime);
    const db = await sqlScan(shop, shopper.id, candidates);
    expect(db.outcome).toBe("accepted");
    expect({ multiplier: db.multiplier, label: db.periodLabel }).toEqual(ts);
  });
});

describe("a redemption: redeemRefusal ↔ fidele_redeem", () => {
  type RedeemCase = {
    name: string;
    reward?: Partial<Omit<RewardRules, "validFrom" | "validUntil">> & { startsIn?: number; endsIn?: number };
    balance?: number;
    hasCard?: boolean;
    used?: number;
    shopActive?: boolean;
  };
  const cases: RedeemCase[] = [
    { name: "everything in order" },
    { name: "a suspended shop", shopActive: false },
    { name: "a reward switched off", reward: { isActive: false } },
    { name: "not started yet", reward: { startsIn: 1 } },
    { name: "starts today", reward: { startsIn: 0 } },
    { name: "ended", reward: { endsIn: -1 } },
    { name: "ends today", reward: { endsIn: 0 } },
    { name: "no card", hasCard: false },
    { name: "the per-customer limit reached", reward: { perCustomerLimit: 1 }, used: 1 },
    { name: "under the per-customer limit", reward: { perCustomerLimit: 2 }, used: 1 },
    { name: "a ladder reward already claimed", reward: { kind: "ladder" }, used: 1 },
    { name: "out of stock", reward: { stock: 0 } },
    { name: "not enough points", balance: 5 },
    { name: "order: switched off before not enough points", reward: { isActive: false }, balance: 5 },
    { name: "order: out of stock before not enough points", reward: { stock: 0 }, balance: 5 },
    { name: "order: ended before no card", reward: { endsIn: -3 }, hasCard: false },
    {
      name: "order: suspended before everything",
      shopActive: false,
      reward: { isActive: false, stock: 0 },
      hasCard: false,
    },
  ];

  it.each(cases)("$name", async (c) => {
    const shop = await newShop();
    const shopper = await createUser(t.deps, { withoutPassword: true });
    const today = localParts(new Date(), "Europe/Paris").date;
    const { startsIn, endsIn, ...reward } = c.reward ?? {};
    const rules: RewardRules = {
      cost: 10,
      isActive: true,
      stock: null,
      perCustomerLimit: null,
      kind: "repeatable",
      validFrom: startsIn === undefined ? null : addDays(today, startsIn),
      validUntil: endsIn === undefined ? null : addDays(today, endsIn),
      ...reward,
    };
    const standing = {
      balance: c.balance ?? 50,
      hasCard: c.hasCard ?? true,
      used: c.used ?? 0,
      shopActive: c.shopActive ?? true,
      today,
    };

    const row = await createReward(t.deps, { shopId: shop.id, ...rules });
    if (standing.hasCard) {
      const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: shopper.id, points: standing.balance });
      for (let i = 0; i < standing.used; i++) {
        await t.deps.db.insert(redemptions).values({
          shopId: shop.id,
          rewardId: row.id,
          cardId,
          userId: shopper.id,
          code: randomUUID().slice(0, 6).toUpperCase(),
          status: "validated",
          title: row.title,
          cost: 0,
          expiresAt: new Date(),
          idempotencyKey: randomUUID(),
        });
      }
    }
    if (!standing.shopActive) await t.deps.db.update(shops).set({ status: "suspended" }).where(eq(shops.id, shop.id));

    const ts: RedeemRefusal | "accepted" = redeemRefusal(rules, standing) ?? "accepted";
    const db = await callJson<{ outcome: string }>(t.deps.database, "select fidele_redeem($1, $2, $3, $4, $5) as r", [
      shopper.id,
      row.id,
      randomUUID(),
      "reward",
      null,
    ]);
    expect(db.outcome).toBe(ts);
  });
});

describe("a card's totals: summarizeLedger ↔ the ledger trigger (fidele_ledger_apply)", () => {
  const deltas: Record<LedgerKind, number> = {
    scan: 1,
    bonus: 20,
    double_points: 4,
    redemption: -8,
    refund: 8,
    adjustment: -2,
    adjustment_balance: 6,
    expiry: -3,
    validation: 0,
    import: 12,
    referral: 5,
  };

  it("every kind of entry moves balance and lifetime alike", async () => {
    const shop = await newShop();
    const shopper = await createUser(t.deps, { withoutPassword: true });
    const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: shopper.id, points: 0 });
    const entries = LEDGER_KINDS.map((kind) => ({ kind, delta: deltas[kind] }));
    for (const e of entries) {
      await t.deps.db
        .insert(ledgerEntries)
        .values({
          cardId,
          shopId: shop.id,
          kind: e.kind,
          delta: e.delta,
          actorId: null,
          reason: null,
          refId: randomUUID(),
        });
    }
    const [card] = await t.deps.db
      .select({ balance: cards.balance, lifetime: cards.lifetime })
      .from(cards)
      .where(sql`${cards.id} = ${cardId}`);
    expect(card).toEqual(summarizeLedger(entries));
  });
});
