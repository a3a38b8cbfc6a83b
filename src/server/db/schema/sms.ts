import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { shopRef, shops } from "./shops.ts";
import { timestampNow, uuidPk } from "./columns.ts";

/**
 * Every SMS the product sends (test or campaign), with what the gateway answered;
 * without a gateway configured (SMS_PROVIDER unset) it stays here ("kept"), readable
 * by the platform admin, as e-mail does with `mail_outbox`.
 */
export const smsOutbox = pgTable(
  "sms_outbox",
  {
    id: uuidPk(),
    shopId: text().references(() => shops.id, { onDelete: "set null" }),
    /** E.164. */
    to: text().notNull(),
    text: text().notNull(),
    /** "verification": the code that proves an owner's own number (ADR 0032). */
    kind: text({ enum: ["test", "campaign", "verification"] }).notNull(),
    provider: text().notNull(),
    status: text({ enum: ["kept", "sent", "failed"] }).notNull(),
    segments: integer().notNull(),
    /** The gateway's answer (status and body, cut at 500 characters), or the error. */
    answer: text(),
    /** The gateway's id of the message, when it gave one. */
    providerId: text(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.createdAt), index().on(t.shopId, t.createdAt)],
);

/**
 * A shop's monthly SMS budget, in segments (what operators bill): granted by the platform
 * admin only (ADR 0032); none means 0. The owner may ask for more (`requested_*`), which
 * the admin's console shows until it grants or refuses.
 */
export const smsBudgets = pgTable(
  "sms_budgets",
  {
    shopId: text()
      .primaryKey()
      .references(() => shops.id, { onDelete: "cascade" }),
    monthlySegments: integer().notNull(),
    /** Who set it is in the audit log ("sms.budget"). */
    updatedAt: timestampNow(),
    /** The owner's pending request: segments a month, a note, when. */
    requestedSegments: integer(),
    requestNote: text(),
    requestedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("sms_budgets_monthly_segments_check", sql`${t.monthlySegments} >= 0`),
    check("sms_budgets_requested_segments_check", sql`${t.requestedSegments} is null or ${t.requestedSegments} >= 0`),
  ],
);

/**
 * The one number a person may send test SMS to (ADR 0032): verified once by a code sent
 * to it (hashed here, expiring, a few tries), then kept until they verify another.
 */
export const smsOwnerPhones = pgTable("sms_owner_phones", {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  verifiedPhone: text(),
  verifiedAt: timestamp({ withTimezone: true }),
  pendingPhone: text(),
  codeHash: text(),
  codeExpiresAt: timestamp({ withTimezone: true }),
  attempts: integer().notNull().default(0),
});

/**
 * Segments spent per shop and month (YYYY-MM in the send window's time zone). A send
 * reserves its segments with one conditional upsert (modules/messages/channels/sms-sending.ts): the row
 * lock makes concurrent reservations queue, and the condition re-read on the latest
 * row keeps `segments` at or under the budget.
 */
export const smsUsage = pgTable(
  "sms_usage",
  {
    shopId: shopRef(),
    month: text().notNull(),
    segments: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.month] }), check("sms_usage_segments_check", sql`${t.segments} >= 0`)],
);
