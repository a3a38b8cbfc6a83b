import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { REFERRAL_STATUSES } from "../../../domain/referrals/referrals.ts";
import { REVIEW_TARGETS } from "../../../domain/reviews/review-requests.ts";
import { user } from "./auth.ts";
import { cards } from "./cards.ts";
import { timestampNow, userRef, uuidPk } from "./columns.ts";
import { messages } from "./messages.ts";
import { shopRef } from "./shops.ts";

/**
 * Issue 28 item 1 (ADR 0048). A shop's parrainage as its owner sets it: what each side receives (points, or one of
 * its rewards as a gift) and how many referrals of one sponsor are rewarded per month.
 */
export const referralPrograms = pgTable(
  "referral_programs",
  {
    shopId: shopRef().primaryKey(),
    enabled: boolean().notNull().default(false),
    sponsorPoints: integer(),
    /** No FK: rewards are archived, not deleted; an archived one gives nothing. */
    sponsorRewardId: text(),
    friendPoints: integer(),
    friendRewardId: text(),
    monthlyCap: integer().notNull().default(5),
    updatedAt: timestampNow(),
  },
  (t) => [check("referral_programs_cap_check", sql`${t.monthlyCap} between 1 and 50`)],
);

/** A shopper's link to share for one shop, and what links them (device, network) when they last opened it. */
export const referralCodes = pgTable(
  "referral_codes",
  {
    code: text().primaryKey(),
    shopId: shopRef(),
    userId: userRef(),
    deviceId: text(),
    network: text(),
    createdAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.shopId, t.userId)],
);

/**
 * Who brought whom: one row per friend and shop (a friend is brought once). `waiting` until the friend's first visit
 * credited at the counter, then `released` (rewards on the ledger, exactly once: the status moves once, and the
 * ledger's unique index on a referral's entries per card) or `held` for the owner's decision when the friend is
 * linked to others of the sponsor's friends or to the sponsor; `refused` by the owner, or when either became staff.
 */
export const referrals = pgTable(
  "referrals",
  {
    id: uuidPk(),
    shopId: shopRef(),
    sponsorId: text().references(() => user.id, { onDelete: "set null" }),
    friendId: text().references(() => user.id, { onDelete: "set null" }),
    /** The friend's device id and network (IPv4 /24, IPv6 /48) when they accepted: one-person.ts's signals. */
    deviceId: text(),
    network: text(),
    status: text({ enum: REFERRAL_STATUSES }).notNull().default("waiting"),
    /** Why it was held (referrals.ts REFERRAL_FLAG_LABELS_FR). */
    flags: text().array().notNull().default(sql`'{}'::text[]`),
    /** The friend's first qualifying visit. */
    visitAt: timestamp({ withTimezone: true }),
    releasedAt: timestamp({ withTimezone: true }),
    /** Whether the sponsor's side was given at release (false: the month's cap was reached). */
    sponsorRewarded: boolean(),
    /** What each side was given, in words, at release (the program may change later). */
    sponsorGift: text(),
    friendGift: text(),
    /** The rewards given as gifts, claimed on /vip (no FK: rewards are archived, not deleted). */
    sponsorRewardId: text(),
    friendRewardId: text(),
    /** The owner's decision on a held one (no FK: history outlives accounts). */
    decidedBy: text(),
    decidedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.shopId, t.friendId),
    index().on(t.shopId, t.sponsorId, t.releasedAt),
    index().on(t.shopId, t.createdAt),
    index("referrals_waiting_idx").on(t.friendId).where(sql`${t.status} = 'waiting'`),
    check("referrals_status_check", sql`${t.status} in ('waiting', 'held', 'released', 'refused')`),
  ],
);

/**
 * Issue 28 item 2 (ADR 0048). A shop's review requests as its owner sets them: where (Google or Fidèle), after which
 * credited visits, on which channels. The texts are fixed (domain/reviews/review-requests.ts).
 */
export const reviewSettings = pgTable(
  "review_settings",
  {
    shopId: shopRef().primaryKey(),
    enabled: boolean().notNull().default(false),
    target: text({ enum: REVIEW_TARGETS }).notNull().default("fidele"),
    googleUrl: text(),
    everyVisits: integer().notNull().default(1),
    withPush: boolean().notNull().default(true),
    withEmail: boolean().notNull().default(false),
    updatedAt: timestampNow(),
  },
  (t) => [check("review_settings_every_check", sql`${t.everyVisits} between 1 and 100`)],
);

/** One request sent to one person (at most one per REVIEW_REQUEST_GAP_DAYS per shop), and the message that carried it. */
export const reviewRequests = pgTable(
  "review_requests",
  {
    id: uuidPk(),
    shopId: shopRef(),
    userId: userRef(),
    cardId: text()
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    /** The credited visit (its number on the card) that asked. */
    visits: integer().notNull(),
    target: text({ enum: REVIEW_TARGETS }).notNull(),
    messageId: text().references(() => messages.id, { onDelete: "set null" }),
    decidedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index().on(t.shopId, t.userId, t.decidedAt),
    index().on(t.shopId, t.decidedAt),
    index().on(t.messageId),
    index().on(t.userId),
  ],
);
