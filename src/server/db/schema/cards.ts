import { sql } from "drizzle-orm";
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { ADJUSTMENT_ALERTS, ADJUSTMENT_STATUSES } from "../../../domain/loyalty/adjustments.ts";
import { LEDGER_KINDS } from "../../../domain/loyalty/ledger.ts";
import { SCAN_METHODS, SCAN_OUTCOMES } from "../../../domain/loyalty/scan-rules.ts";
import { user } from "./auth.ts";
import { shopRef, shops } from "./shops.ts";
import { timestampNow, userRef, uuidPk } from "./columns.ts";

/**
 * A shopper's card at one shop. `balance` and `lifetime` are caches of the ledger,
 * kept by a trigger on ledger_entries (fidele_ledger_apply, src/server/db/functions/ledger.sql) and rebuildable from it;
 * the visit fields are what the cooldown and the daily cap read under a row lock.
 * Deleting an account keeps the card (and its ledger) without its owner.
 */
export const cards = pgTable(
  "cards",
  {
    id: uuidPk(),
    shopId: text()
      .notNull()
      .references(() => shops.id),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    balance: integer().notNull().default(0),
    lifetime: integer().notNull().default(0),
    visits: integer().notNull().default(0),
    lastScanAt: timestamp({ withTimezone: true }),
    /** Local date (shop time zone) of the last credited visit, and how many that day. */
    dayKey: date({ mode: "string" }),
    dayCount: integer().notNull().default(0),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
    /**
     * Issue 11. Copies of the owner's name and e-mail for the customers list, kept by triggers
     * (src/server/db/functions/customer-text.sql): the name sort's key and the folded search text, so the list sorts
     * and searches one table by index (cards_shop_sort_name_idx, migration 0017) instead of joining every customer.
     */
    sortName: text().notNull().default(" "),
    searchText: text().notNull().default("  "),
  },
  (t) => [
    uniqueIndex().on(t.shopId, t.userId),
    index().on(t.userId),
    index().on(t.shopId, t.lastScanAt),
    check("cards_balance_check", sql`${t.balance} >= 0`),
  ],
);

/**
 * The append-only points ledger: a trigger refuses UPDATE, DELETE and TRUNCATE.
 * `idempotencyKey` is unique per actor (the user who sent the request).
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    id: uuidPk(),
    cardId: text()
      .notNull()
      .references(() => cards.id),
    shopId: text()
      .notNull()
      .references(() => shops.id),
    kind: text({ enum: LEDGER_KINDS }).notNull(),
    delta: integer().notNull(),
    /** Who caused it: the shopper for a scan, the staff member for an adjustment. No FK: history outlives accounts. */
    actorId: text(),
    reason: text(),
    /** The row this entry is about (a scan, a redemption…). */
    refId: text(),
    idempotencyKey: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.actorId, t.idempotencyKey),
    index().on(t.cardId, t.createdAt),
    index().on(t.shopId, t.createdAt),
    check("ledger_entries_delta_check", sql`${t.delta} <> 0 or ${t.kind} = 'validation'`),
    /** A redemption is refunded at most once, whatever races or restarts. */
    uniqueIndex("ledger_entries_refund_once_idx").on(t.refId).where(sql`${t.kind} = 'refund'`),
    /** A correction (its `adjustments` row) reaches the ledger at most once, however many approvals race. */
    uniqueIndex("ledger_entries_adjustment_once_idx")
      .on(t.refId)
      .where(sql`${t.kind} in ('adjustment', 'adjustment_balance') and ${t.refId} is not null`),
    /** A referral's points reach each card (the sponsor's, the friend's) at most once (ADR 0048). */
    uniqueIndex("ledger_entries_referral_once_idx").on(t.refId, t.cardId).where(sql`${t.kind} = 'referral'`),
  ],
);

/**
 * Every correction of a card by the shop's team (issue 22, row 17; ADR 0036): applied at once, or waiting for the
 * owner or a manager, or refused. The owner's feed reads this table; an applied one has its ledger entry
 * (`ledger_entries.ref_id` = this id, of kind `kind`).
 */
export const adjustments = pgTable(
  "adjustments",
  {
    id: uuidPk(),
    shopId: shopRef(),
    cardId: text()
      .notNull()
      .references(() => cards.id),
    /** Who made or asked for it (no FK: history outlives accounts). */
    actorId: text().notNull(),
    delta: integer().notNull(),
    reason: text().notNull(),
    status: text({ enum: ADJUSTMENT_STATUSES }).notNull(),
    /** The ledger kind it has (or will have) once applied: whether the lifetime total moves. */
    kind: text({ enum: ["adjustment", "adjustment_balance"] }).notNull(),
    /** What made it unusual when it was made (ADJUSTMENT_ALERTS). */
    alerts: text({ enum: ADJUSTMENT_ALERTS }).array().notNull().default(sql`'{}'::text[]`),
    idempotencyKey: text().notNull(),
    /** Who approved or refused it (no FK). */
    decidedBy: text(),
    decidedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.actorId, t.idempotencyKey),
    index().on(t.shopId, t.createdAt),
    index().on(t.shopId, t.actorId, t.createdAt),
    index("adjustments_pending_idx").on(t.shopId, t.createdAt).where(sql`${t.status} = 'pending'`),
    index().on(t.cardId),
    check("adjustments_delta_check", sql`${t.delta} <> 0`),
    check("adjustments_status_check", sql`${t.status} in ('applied', 'pending', 'refused')`),
  ],
);

/**
 * Every scan attempt, credited or not, with why; `response` is the first answer,
 * returned again to a retry with the same idempotency key.
 */
export const scans = pgTable(
  "scans",
  {
    id: uuidPk(),
    shopId: text().references(() => shops.id, { onDelete: "cascade" }),
    /** The customer credited (or refused). */
    userId: text().references(() => user.id, { onDelete: "set null" }),
    /**
     * Who sent the request: the customer, a staff member for a visit typed at the counter, or `apikey:<id>` for a
     * till (issue 29).
     */
    actorId: text().notNull(),
    cardId: text().references(() => cards.id),
    scanUid: text().notNull(),
    outcome: text({ enum: SCAN_OUTCOMES }).notNull(),
    method: text({ enum: SCAN_METHODS }).notNull(),
    delta: integer().notNull().default(0),
    multiplier: integer().notNull().default(1),
    flags: text().array().notNull().default(sql`'{}'::text[]`),
    deviceId: text(),
    /** The amount spent, for a card that earns by amount (issue 29). */
    amountCents: integer(),
    idempotencyKey: text().notNull(),
    response: jsonb().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.actorId, t.idempotencyKey),
    index().on(t.shopId, t.createdAt),
    index().on(t.cardId, t.createdAt),
    index().on(t.deviceId, t.createdAt),
    // fidele_scan's shared-device check: two ranges around the caller's id, cost flat as history grows.
    index("scans_device_user_created_idx").on(t.deviceId, t.userId, t.createdAt),
  ],
);

/**
 * Scan claims used (docs/decisions/0012): a claim's nonce is recorded by the first account that uses it, with
 * that attempt's idempotency key, so a retry of the same attempt passes and anyone else is refused. Rows are
 * useless once the claim has expired (30 min) and may be deleted then.
 */
export const scanClaims = pgTable(
  "scan_claims",
  {
    nonce: text().primaryKey(),
    shopId: shopRef(),
    /** Kept null when the account is deleted: the nonce stays spent. */
    userId: text().references(() => user.id, { onDelete: "set null" }),
    idempotencyKey: text().notNull(),
    usedAt: timestampNow(),
  },
  (t) => [index().on(t.usedAt)],
);

export type Card = typeof cards.$inferSelect;
export type LedgerEntry = typeof ledgerEntries.$inferSelect;
export type Scan = typeof scans.$inferSelect;

/**
 * A shop's private note about one of its customers (/profile/{id}, issue 16): seen by the shop's team only, one per
 * shop and person. Erased with the account (it is about the person, and in their export).
 */
export const customerNotes = pgTable(
  "customer_notes",
  {
    shopId: shopRef(),
    userId: userRef(),
    note: text().notNull(),
    /** The team member who wrote it last (no FK: history outlives accounts). */
    updatedBy: text(),
    updatedAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.userId] })],
);
