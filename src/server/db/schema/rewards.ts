import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { REDEMPTION_SOURCES, REDEMPTION_STATUSES, REWARD_KINDS } from "../../../domain/loyalty/rewards.ts";
import { user } from "./auth.ts";
import { cards } from "./cards.ts";
import { shopRef } from "./shops.ts";
import { timestampNow, uuidPk } from "./columns.ts";

/**
 * A shop's reward (/admin/recompenses). `stock` is what is left (null: unlimited);
 * a pending redemption holds one, given back if it ends without validation.
 * A reward with redemptions is archived, never deleted: redemptions keep a copy of
 * its title and cost, so editing a reward never changes what was already redeemed.
 */
export const rewards = pgTable(
  "rewards",
  {
    id: uuidPk(),
    shopId: shopRef(),
    slug: text().notNull().unique(),
    title: text().notNull(),
    description: text(),
    /** Data URL (image/png|jpeg|webp;base64), size-checked by the schema. */
    photo: text(),
    cost: integer().notNull(),
    stock: integer(),
    perCustomerLimit: integer(),
    validFrom: date({ mode: "string" }),
    validUntil: date({ mode: "string" }),
    kind: text({ enum: REWARD_KINDS }).notNull().default("repeatable"),
    isActive: boolean().notNull().default(true),
    position: integer().notNull().default(0),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.shopId, t.position),
    check("rewards_cost_check", sql`${t.cost} > 0`),
    check("rewards_stock_check", sql`${t.stock} is null or ${t.stock} >= 0`),
    check("rewards_limit_check", sql`${t.perCustomerLimit} is null or ${t.perCustomerLimit} > 0`),
  ],
);

/**
 * A reward being claimed: created by "Utiliser" with its points reserved (a
 * `redemption` ledger entry), then validated or refused by staff, cancelled by
 * the shopper, or expired; the last three give the points back exactly once (a
 * `refund` entry, unique per redemption). `code` is what staff type or scan.
 */
export const redemptions = pgTable(
  "redemptions",
  {
    id: uuidPk(),
    shopId: shopRef(),
    rewardId: text()
      .notNull()
      .references(() => rewards.id),
    cardId: text()
      .notNull()
      .references(() => cards.id),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    code: text().notNull(),
    status: text({ enum: REDEMPTION_STATUSES }).notNull().default("pending"),
    source: text({ enum: REDEMPTION_SOURCES }).notNull().default("reward"),
    /** For gifts: what makes them once-only (the VIP level's id, the birthday's year). */
    sourceRef: text(),
    /** Copies of the reward at the time: later edits do not change them. */
    title: text().notNull(),
    cost: integer().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    idempotencyKey: text().notNull(),
    decidedAt: timestamp({ withTimezone: true }),
    /** The staff member who validated or refused (no FK: history outlives accounts). */
    decidedBy: text(),
    refuseReason: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.userId, t.idempotencyKey),
    uniqueIndex("redemptions_pending_code_idx").on(t.shopId, t.code).where(sql`${t.status} = 'pending'`),
    uniqueIndex("redemptions_gift_once_idx")
      .on(t.cardId, t.source, t.sourceRef)
      .where(sql`${t.source} <> 'reward' and ${t.status} in ('pending', 'validated')`),
    index("redemptions_pending_expiry_idx").on(t.expiresAt).where(sql`${t.status} = 'pending'`),
    index().on(t.shopId, t.createdAt),
    index().on(t.cardId, t.rewardId),
    index().on(t.userId, t.createdAt),
    check("redemptions_cost_check", sql`${t.cost} >= 0`),
  ],
);

/** VIP levels of a shop (/vip), on lifetime points. */
export const vipTiers = pgTable(
  "vip_tiers",
  {
    id: uuidPk(),
    shopId: shopRef(),
    name: text().notNull(),
    threshold: integer().notNull(),
    multiplier: integer().notNull().default(1),
    rewardId: text().references(() => rewards.id, { onDelete: "set null" }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.shopId, t.threshold),
    check("vip_tiers_threshold_check", sql`${t.threshold} > 0`),
    check("vip_tiers_multiplier_check", sql`${t.multiplier} between 1 and 3`),
  ],
);

export type Reward = typeof rewards.$inferSelect;
export type Redemption = typeof redemptions.$inferSelect;
export type VipTierRow = typeof vipTiers.$inferSelect;
