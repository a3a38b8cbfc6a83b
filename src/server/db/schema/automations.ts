import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { AUTOMATION_KINDS } from "../../../domain/messages/automations.ts";
import { OFFER_KINDS } from "../../../domain/messages/offers.ts";
import { cards } from "./cards.ts";
import { timestampNow, userRef, uuidPk } from "./columns.ts";
import { messages } from "./messages.ts";
import { rewards } from "./rewards.ts";
import { shopRef } from "./shops.ts";

/**
 * Issue 27 (ADR 0046). A shop's automated message of one kind (src/domain/messages/automations.ts): made when the
 * owner first saves it; the job automations.run looks at every enabled one every few minutes.
 */
export const automations = pgTable(
  "automations",
  {
    id: uuidPk(),
    shopId: shopRef(),
    kind: text({ enum: AUTOMATION_KINDS }).notNull(),
    enabled: boolean().notNull().default(false),
    /** When it was last turned on: a welcome is for customers whose first visit came after. */
    enabledAt: timestamp({ withTimezone: true }),
    withPush: boolean().notNull().default(true),
    withEmail: boolean().notNull().default(false),
    withSms: boolean().notNull().default(false),
    /** The absence (win-back) or the wait (reward waiting), in days; null for the kinds without. */
    days: integer(),
    title: text().notNull(),
    body: text().notNull(),
    /** The share of each occasion's people sent nothing, for the results (0–50). */
    holdoutPercent: integer().notNull().default(10),
    /**
     * The offer each recipient gets with it (ADR 0046, migration 0035): double points at this shop for them alone,
     * or a reward of the shop as a gift; for `offerDays` days. Null: none. Never to the held out, never to staff.
     */
    offerKind: text({ enum: OFFER_KINDS }),
    offerRewardId: text().references(() => rewards.id, { onDelete: "set null" }),
    offerDays: integer().notNull().default(7),
    /** About how many it will send in the next 7 days, and when that was worked out (automations.measure). */
    expectedNextWeek: integer(),
    expectedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.shopId, t.kind),
    check("automations_holdout_check", sql`${t.holdoutPercent} between 0 and 50`),
    check("automations_days_check", sql`${t.days} is null or ${t.days} between 1 and 365`),
    check("automations_offer_check", sql`${t.offerKind} is null or ${t.offerKind} in ('double_points', 'reward')`),
    check("automations_offer_days_check", sql`${t.offerDays} between 1 and 30`),
  ],
);

/**
 * One person's occasion of an automation (their absence, their birthday of a year…), recorded once: the unique index
 * (automation, person, occasion) is what makes a win-back « once per absence » whichever process decides it, and the
 * row says which group they fell in. `since` is the card's last visit when it was decided: a return is a credited
 * visit after it (by construction there is none between `since` and `decided_at`).
 */
export const automationOccasions = pgTable(
  "automation_occasions",
  {
    id: uuidPk(),
    automationId: text()
      .notNull()
      .references(() => automations.id, { onDelete: "cascade" }),
    shopId: shopRef(),
    userId: userRef(),
    cardId: text()
      .notNull()
      .references(() => cards.id, { onDelete: "cascade" }),
    /** What makes it once: « welcome », « absence:<last visit> », « birthday:<year> »… */
    occasion: text().notNull(),
    since: timestamp({ withTimezone: true }),
    decidedAt: timestamp({ withTimezone: true }).notNull(),
    /** Held out: sent nothing, counted in the results. */
    holdout: boolean().notNull(),
    /** Sent by hand (the at-risk list's win-back): never held out, left out of the results. */
    manual: boolean().notNull().default(false),
    /** The message that carried it (null when held out). */
    messageId: text().references(() => messages.id, { onDelete: "set null" }),
    /**
     * What followed, measured by the job automations.measure until the return window closes (RETURN_WINDOW_DAYS
     * after `decided_at`): credited visits after `since`, points earned, rewards taken; whether the message reached
     * the person on some channel; up to when it was counted. The results page adds these up.
     */
    visits: integer().notNull().default(0),
    points: integer().notNull().default(0),
    rewards: integer().notNull().default(0),
    reached: boolean().notNull().default(false),
    measuredUntil: timestamp({ withTimezone: true }),
    /** The recipient's merge field values when it was decided ({{prenom}}…): every channel fills the text with them. */
    merge: jsonb().$type<Record<string, string>>(),
    /**
     * The offer this person got with it (a copy of the automation's at the decision), until `offerUntil`: once per
     * occasion by the row's own uniqueness. Double points are applied by fidele_scan; a reward is claimed as a gift.
     */
    offerKind: text({ enum: OFFER_KINDS }),
    offerRewardId: text().references(() => rewards.id, { onDelete: "set null" }),
    offerUntil: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.automationId, t.userId, t.occasion),
    index("automation_occasions_offer_card_index").on(t.cardId, t.offerUntil).where(sql`${t.offerKind} is not null`),
    index().on(t.automationId, t.decidedAt),
    index().on(t.messageId),
    index().on(t.userId),
  ],
);

/**
 * Issue 27 item 3. The cohort grid's past months, per shop: of the customers whose card was made in `cohortMonth`,
 * how many had a credited visit in `month` (both the first day of a month in the shop's time zone). A month is
 * written once it has ended (job retention.fold, modules/cards/retention.service.ts); the current month is read
 * from the cards (their last visit), so the grid never scans the shop's visits when it is read.
 */
export const shopCohortMonths = pgTable(
  "shop_cohort_months",
  {
    shopId: shopRef(),
    cohortMonth: date({ mode: "string" }).notNull(),
    month: date({ mode: "string" }).notNull(),
    customers: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.cohortMonth, t.month] })],
);

/**
 * A shop's rhythm figures at `computedAt` (hourly, job retention.fold): the median days between two visits of its
 * regulars, how many regulars, how many are at risk. Whole-shop passes over its cards, kept so the dashboard and the
 * automations page read one row.
 */
export const shopRhythms = pgTable("shop_rhythms", {
  shopId: shopRef().primaryKey(),
  computedAt: timestamp({ withTimezone: true }).notNull(),
  medianDays: doublePrecision(),
  regulars: integer().notNull(),
  atRisk: integer().notNull(),
});

/** How far each shop's cohort grid is written (the last month folded), and in which time zone. */
export const shopCohortFolds = pgTable("shop_cohort_folds", {
  shopId: shopRef().primaryKey(),
  foldedThrough: date({ mode: "string" }).notNull(),
  timezone: text().notNull(),
});
