import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { PAYMENT_METHODS, PREPAID_ENTRY_KINDS, PREPAID_KINDS } from "../../../domain/loyalty/prepaid.ts";
import { user } from "./auth.ts";
import { shops } from "./shops.ts";
import { timestampNow, uuidPk } from "./columns.ts";

/**
 * Prepaid products a shop sells at its own till (ADR 0049). `quantity` is the units of a bundle or the cents of a
 * gift card. Never deleted once sold (holdings keep a copy of the title): switched off instead.
 */
export const prepaidProducts = pgTable(
  "prepaid_products",
  {
    id: uuidPk(),
    shopId: text()
      .notNull()
      .references(() => shops.id),
    kind: text({ enum: PREPAID_KINDS }).notNull(),
    title: text().notNull(),
    quantity: integer().notNull(),
    priceCents: integer().notNull(),
    validityMonths: integer().notNull(),
    isActive: boolean().notNull().default(true),
    createdAt: timestampNow(),
  },
  (t) => [
    index().on(t.shopId),
    check("prepaid_products_quantity_check", sql`${t.quantity} > 0`),
    check("prepaid_products_price_check", sql`${t.priceCents} >= 0`),
  ],
);

/**
 * What one person holds of a product (or what waits for them: a gift sent by e-mail, not yet claimed, has no
 * `userId` but a `claimCode`). `balance` is a cache of its ledger, kept by a trigger (functions/prepaid.sql).
 * `code` is what the holder shows at the counter. `soldBy` is the staff member who recorded the sale.
 */
export const prepaidHoldings = pgTable(
  "prepaid_holdings",
  {
    id: uuidPk(),
    shopId: text()
      .notNull()
      .references(() => shops.id),
    productId: text().references(() => prepaidProducts.id),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    kind: text({ enum: PREPAID_KINDS }).notNull(),
    title: text().notNull(),
    code: text().notNull(),
    balance: integer().notNull().default(0),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    claimCode: text(),
    recipientEmail: text(),
    soldBy: text(),
    paymentMethod: text({ enum: PAYMENT_METHODS }),
    priceCents: integer(),
    idempotencyKey: text(),
    claimedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.shopId, t.code),
    uniqueIndex().on(t.claimCode),
    uniqueIndex().on(t.soldBy, t.idempotencyKey),
    index().on(t.userId),
    index().on(t.shopId, t.createdAt),
    check("prepaid_holdings_balance_check", sql`${t.balance} >= 0`),
  ],
);

/** The append-only ledger of prepaid balances (triggers refuse UPDATE, DELETE, TRUNCATE). Units or cents. */
export const prepaidEntries = pgTable(
  "prepaid_entries",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    holdingId: text()
      .notNull()
      .references(() => prepaidHoldings.id),
    shopId: text()
      .notNull()
      .references(() => shops.id),
    kind: text({ enum: PREPAID_ENTRY_KINDS }).notNull(),
    delta: integer().notNull(),
    /** Staff member (sale, use, cancel) or the claimer (import). No FK: history outlives accounts. */
    actorId: text(),
    idempotencyKey: text(),
    /** A cancel: the use it gives back (each use is cancelled once at most: the unique index). */
    reversesId: bigint({ mode: "number" }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.actorId, t.idempotencyKey),
    uniqueIndex().on(t.reversesId),
    index().on(t.holdingId),
    index().on(t.shopId, t.createdAt),
    check("prepaid_entries_delta_check", sql`${t.delta} <> 0`),
  ],
);

/**
 * One line of a shop's import (issue 28 item 4): a customer's former points and prepaid balance, waiting for
 * that person to claim it with `code` (no account is ever made for them). Claimed once: `claimedBy` set under the
 * row lock, and the ledgers credited in the same transaction.
 */
export const importInvitations = pgTable(
  "import_invitations",
  {
    id: uuidPk(),
    shopId: text()
      .notNull()
      .references(() => shops.id),
    batchId: text().notNull(),
    line: integer().notNull(),
    code: text().notNull(),
    firstName: text(),
    lastName: text(),
    email: text(),
    points: integer().notNull().default(0),
    prepaidKind: text({ enum: PREPAID_KINDS }),
    prepaidAmount: integer(),
    prepaidTitle: text(),
    prepaidExpiresAt: timestamp({ withTimezone: true }),
    createdBy: text(),
    claimedBy: text(),
    claimedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.code),
    index().on(t.shopId, t.batchId),
    check("import_invitations_points_check", sql`${t.points} >= 0`),
  ],
);
