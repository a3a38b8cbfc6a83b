import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import {
  CONTEST_KINDS,
  CONTEST_STORED_STATUSES,
  ELIGIBILITIES,
  HANDOVER_MODES,
  SPIN_PERIODS,
  WINNING_STATUSES,
} from "../../../domain/contests/contests.ts";
import type { RulesDocument } from "../../../domain/contests/rules-text.ts";
import { user } from "./auth.ts";
import { shopRef } from "./shops.ts";
import { timestampNow, uuidPk } from "./columns.ts";

/**
 * A shop's stock of prizes (/admin/gestion-des-lots). `remaining` only goes down by a conditional update
 * (`where remaining > 0`), and a check keeps it at or above zero whatever happens.
 * No price, cost or points-to-pay column anywhere in contests: taking part is free (CSI L322-1).
 */
export const prizeLots = pgTable(
  "prize_lots",
  {
    id: uuidPk(),
    shopId: shopRef(),
    name: text().notNull(),
    description: text(),
    photo: text(),
    /** Commercial value in euro cents, stated in the règlement. */
    valueCents: integer().notNull(),
    quantity: integer().notNull(),
    remaining: integer().notNull(),
    handover: text({ enum: HANDOVER_MODES }).notNull(),
    /** Points credited to the card (handover = points). */
    points: integer(),
    claimDays: integer().notNull(),
    archivedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.shopId),
    check("prize_lots_remaining_check", sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.quantity}`),
    check("prize_lots_value_check", sql`${t.valueCents} >= 0`),
    check("prize_lots_claim_days_check", sql`${t.claimDays} > 0`),
    check("prize_lots_points_check", sql`${t.handover} <> 'points' or ${t.points} > 0`),
  ],
);

/**
 * A contest: a draw or a wheel. Stored status draft → scheduled → drawn; "open" and "closed" follow from the dates
 * (src/domain/contests/contests.ts). `seed` stays secret until the draw; `seedCommitment` is public from scheduling.
 */
export const contests = pgTable(
  "contests",
  {
    id: uuidPk(),
    shopId: shopRef(),
    kind: text({ enum: CONTEST_KINDS }).notNull(),
    title: text().notNull(),
    description: text(),
    status: text({ enum: CONTEST_STORED_STATUSES }).notNull().default("draft"),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    eligibility: text({ enum: ELIGIBILITIES }).notNull().default("customers"),
    entriesPerPerson: integer().notNull().default(1),
    spinPeriod: text({ enum: SPIN_PERIODS }).notNull().default("day"),
    seed: text(),
    seedCommitment: text(),
    entrantsHash: text(),
    /** The frozen list, as published: [{ ticketId, participantId }] sorted by ticket id. */
    entrants: jsonb().$type<{ ticketId: string; participantId: string }[]>(),
    drawnAt: timestamp({ withTimezone: true }),
    scheduledAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.shopId, t.createdAt),
    index("contests_due_draw_idx").on(t.endsAt).where(sql`${t.status} = 'scheduled' and ${t.kind} = 'draw'`),
    check("contests_dates_check", sql`${t.endsAt} > ${t.startsAt}`),
    check("contests_entries_check", sql`${t.entriesPerPerson} between 1 and 10`),
  ],
);

/** The lots of a contest: for a draw, how many winners get each; for a wheel, each slice's odds. */
export const contestPrizes = pgTable(
  "contest_prizes",
  {
    id: uuidPk(),
    contestId: text()
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    lotId: text()
      .notNull()
      .references(() => prizeLots.id),
    position: integer().notNull(),
    quantity: integer().notNull().default(1),
    oddsBp: integer().notNull().default(0),
  },
  (t) => [
    uniqueIndex().on(t.contestId, t.lotId),
    check("contest_prizes_quantity_check", sql`${t.quantity} > 0`),
    check("contest_prizes_odds_check", sql`${t.oddsBp} between 0 and 10000`),
  ],
);

/**
 * One entry (a draw ticket, or a spin of the wheel). The unique index is the anti-abuse rule: at most `n` entries
 * per person, contest and period ("contest", a local day, or a week), whatever the race.
 */
export const contestEntries = pgTable(
  "contest_entries",
  {
    id: uuidPk(),
    contestId: text()
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    period: text().notNull(),
    n: integer().notNull().default(1),
    /** Wheel: the prize won by this spin, or null (the losing slice). */
    prizeId: text().references(() => contestPrizes.id),
    marketingConsent: boolean().notNull().default(false),
    /**
     * One person, one entry (src/domain/contests/one-person.ts, ADR 0033): the device id the phone keeps, and the
     * network the entry came from cut to IPv4 /24 or IPv6 /48 — never the address. Kept as long as the entry
     * (the règlement's one year after the contest).
     */
    deviceId: text(),
    network: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex("contest_entries_once_idx").on(t.contestId, t.userId, t.period, t.n),
    index().on(t.userId, t.createdAt),
    index("contest_entries_device_idx").on(t.contestId, t.deviceId).where(sql`${t.deviceId} is not null`),
    index("contest_entries_network_idx").on(t.contestId, t.network).where(sql`${t.network} is not null`),
  ],
);

/**
 * Lots won (/admin/gestion-des-lots-2), with the code shown at the counter. A draw's winners carry their rank in
 * the draw's sequence; an unclaimed one becomes "redrawn" and the next in the sequence gets a new row.
 */
export const contestWinnings = pgTable(
  "contest_winnings",
  {
    id: uuidPk(),
    shopId: shopRef(),
    contestId: text()
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    prizeId: text()
      .notNull()
      .references(() => contestPrizes.id),
    lotId: text()
      .notNull()
      .references(() => prizeLots.id),
    entryId: text().references(() => contestEntries.id),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    drawRank: integer(),
    code: text().notNull(),
    status: text({ enum: WINNING_STATUSES }).notNull().default("to_hand_over"),
    claimBy: timestamp({ withTimezone: true }).notNull(),
    handedOverAt: timestamp({ withTimezone: true }),
    /** The staff member who handed it over (no FK: history outlives accounts). */
    handedOverBy: text(),
    /** Why it ended without hand-over, for the log ("non réclamé dans le délai"). */
    note: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex("contest_winnings_code_idx").on(t.shopId, t.code),
    uniqueIndex("contest_winnings_rank_idx").on(t.contestId, t.drawRank),
    index().on(t.shopId, t.createdAt),
    index().on(t.userId, t.createdAt),
    index("contest_winnings_due_idx").on(t.claimBy).where(sql`${t.status} = 'to_hand_over'`),
  ],
);

/** Published versions of a contest's règlement: the first at scheduling; a change once open is a new version. */
export const contestRules = pgTable(
  "contest_rules",
  {
    contestId: text()
      .notNull()
      .references(() => contests.id, { onDelete: "cascade" }),
    version: integer().notNull(),
    document: jsonb().$type<RulesDocument>().notNull(),
    publishedAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.contestId, t.version] })],
);

/** The platform admin's pick for each featured contest page (/jeu-concours-cajvb …). */
export const featuredContests = pgTable("featured_contests", {
  slot: text().primaryKey(),
  contestId: text()
    .notNull()
    .references(() => contests.id, { onDelete: "cascade" }),
  updatedAt: timestampNow(),
});

export type PrizeLot = typeof prizeLots.$inferSelect;
export type Contest = typeof contests.$inferSelect;
