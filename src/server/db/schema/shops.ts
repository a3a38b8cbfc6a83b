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
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import type { Closure, WeeklyHours } from "../../../domain/loyalty/hours.ts";
import type { CardDesign, ShopLinks } from "../../../domain/schemas/shops.ts";
import { organization } from "./auth.ts";
import { timestampNow, userRef, uuidPk } from "./columns.ts";

export type ShopLegal = {
  legalName: string;
  legalForm: string | null;
  vatNumber: string | null;
  shareCapital: string | null;
  rcs: string | null;
  legalAddress: string | null;
  director: string | null;
  contactEmail: string | null;
};

/**
 * A shop: 1:1 with a better-auth organization (its members are the owner and staff).
 * `scanUid` is the public part of its codes (SPEC §3 scan_uid), `codeSecret` the
 * HMAC key that signs them; neither is ever listed publicly. `configVersion` is
 * bumped by a trigger whenever what the scan path caches changes (migrations 0002, 0006).
 */
/** The shop a row belongs to, deleted with it. */
export const shopRef = () =>
  text()
    .notNull()
    .references(() => shops.id, { onDelete: "cascade" });

export const shops = pgTable(
  "shops",
  {
    id: text()
      .primaryKey()
      .references(() => organization.id, { onDelete: "cascade" }),
    slug: text().notNull().unique(),
    scanUid: text().notNull().unique(),
    codeSecret: text().notNull(),
    name: text().notNull(),
    category: text().notNull(),
    address: text().notNull(),
    city: text().notNull(),
    postalCode: text().notNull(),
    phone: text().notNull(),
    siret: text(),
    lat: doublePrecision(),
    lng: doublePrecision(),
    description: text(),
    /** Data URLs (image/png|jpeg|webp;base64), size-checked by the schemas. */
    logo: text(),
    /**
     * The logo as a small PNG for Apple Wallet, which takes PNG only (the logo itself is usually WebP): drawn by the
     * owner's browser from the logo when it is chosen; null when the logo changed without one (ADR 0045).
     */
    walletLogo: text(),
    cover: text(),
    links: jsonb()
      .$type<ShopLinks>()
      .notNull()
      .default({ website: null, instagram: null, facebook: null, tiktok: null }),
    legal: jsonb().$type<ShopLegal>(),
    status: text({ enum: ["active", "suspended"] })
      .notNull()
      .default("active"),
    suspendedReason: text(),
    suspendedAt: timestamp({ withTimezone: true }),
    /** Deleted by its owner (after an export): closed for good, its ledger and figures kept, its details wiped. */
    deletedAt: timestamp({ withTimezone: true }),
    cardMode: text({ enum: ["stamps", "points"] })
      .notNull()
      .default("stamps"),
    stampsGoal: integer().notNull().default(10),
    pointsPerVisit: integer().notNull().default(10),
    cooldownMinutes: integer().notNull().default(240),
    dailyCap: integer().notNull().default(2),
    allowStaticPoster: boolean().notNull().default(false),
    /** A scan made offline counts when sent within the code's validity plus these minutes (0: never). */
    offlineGraceMinutes: integer().notNull().default(30),
    /** How the card earns (issue 29, ADR 0050): a visit's points, or points per euro of an amount (points cards). */
    earnBy: text({ enum: ["visit", "amount"] })
      .notNull()
      .default("visit"),
    pointsPerEuro: integer().notNull().default(1),
    amountRounding: text({ enum: ["down", "nearest", "up"] })
      .notNull()
      .default("down"),
    /** The key a till signs receipt codes with (ADR 0053), or null: no receipt codes. */
    receiptSecret: text(),
    /** How long after it is printed a receipt code can be scanned. */
    receiptWindowMinutes: integer().notNull().default(1440),
    cardDesign: jsonb().$type<CardDesign>().notNull(),
    weeklyHours: jsonb().$type<WeeklyHours>().notNull().default([[], [], [], [], [], [], []]),
    closures: jsonb().$type<Closure[]>().notNull().default([]),
    timezone: text().notNull().default("Europe/Paris"),
    /** How long a pending redemption holds its points (then they come back). */
    redemptionTtlMinutes: integer().notNull().default(15),
    /**
     * A team member's correction larger than this (either way) waits for the owner or a manager; null: a visit's
     * worth (src/domain/loyalty/adjustments.ts, ADR 0036).
     */
    adjustmentLimit: integer(),
    /** A team member's corrections a day at this shop beyond which each waits for approval. */
    staffAdjustmentsPerDay: integer().notNull().default(3),
    /** Whether a team member's correction moves the lifetime total (VIP levels) too. */
    staffAdjustmentsLifetime: boolean().notNull().default(false),
    /** The reward given once a year in a customer's birthday week, or null (no FK: rewards are archived, not deleted). */
    birthdayRewardId: text(),
    configVersion: integer().notNull().default(1),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    index().on(t.city),
    index().on(t.category),
    check(
      "shops_rules_check",
      sql`${t.stampsGoal} > 0 and ${t.pointsPerVisit} > 0 and ${t.cooldownMinutes} >= 0 and ${t.dailyCap} > 0`,
    ),
    check(
      "shops_earn_check",
      sql`${t.earnBy} in ('visit', 'amount') and ${t.pointsPerEuro} between 1 and 100 and ${t.amountRounding} in ('down', 'nearest', 'up') and ${t.receiptWindowMinutes} between 5 and 43200`,
    ),
    check("shops_offline_grace_check", sql`${t.offlineGraceMinutes} between 0 and 240`),
    check(
      "shops_adjustments_check",
      sql`(${t.adjustmentLimit} is null or ${t.adjustmentLimit} > 0) and ${t.staffAdjustmentsPerDay} between 0 and 50`,
    ),
  ],
);

/** Double-points periods (/admin/points-double); see src/domain/loyalty/double-points.ts. */
export const doublePointsPeriods = pgTable(
  "double_points_periods",
  {
    id: uuidPk(),
    shopId: shopRef(),
    label: text().notNull(),
    startDate: date({ mode: "string" }),
    endDate: date({ mode: "string" }),
    weekdays: integer().array().notNull().default(sql`'{}'::integer[]`),
    startTime: text(),
    endTime: text(),
    multiplier: integer().notNull(),
    isActive: boolean().notNull().default(true),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [index().on(t.shopId), check("double_points_multiplier_check", sql`${t.multiplier} between 2 and 5`)],
);

/** One review per shopper per shop, editable; only customers of the shop may write one. */
export const shopReviews = pgTable(
  "shop_reviews",
  {
    id: uuidPk(),
    shopId: shopRef(),
    userId: userRef(),
    rating: integer().notNull(),
    comment: text(),
    createdAt: timestampNow(),
    updatedAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.shopId, t.userId),
    index().on(t.shopId, t.updatedAt),
    check("shop_reviews_rating_check", sql`${t.rating} between 1 and 5`),
  ],
);

export type Shop = typeof shops.$inferSelect;
export type DoublePointsRow = typeof doublePointsPeriods.$inferSelect;
