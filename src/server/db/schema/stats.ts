import { bigint, date, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import { shopRef } from "./shops.ts";
import { timestampNow } from "./columns.ts";

/** A shop's figures for one local day: the same columns in the folded table and in the deltas it is folded from. */
const dayFigures = () => ({
  day: date({ mode: "string" }).notNull(),
  /** Cards made that day. */
  newCustomers: integer().notNull().default(0),
  /** Scans accepted / refused, and those with a flag. */
  scans: integer().notNull().default(0),
  refused: integer().notNull().default(0),
  flagged: integer().notNull().default(0),
  /** Points earned (ledger kinds scan, double_points, bonus) and `redemption` entries. A day's sum of points
   *  may pass 2^31 (a shop granting large bonuses): bigint, or the fold would fail on it forever. */
  points: bigint({ mode: "number" }).notNull().default(0),
  redemptions: integer().notNull().default(0),
});

/**
 * Issue 11. The dashboard's figures per shop and local day (the shop's time zone), so that a year costs 365 rows.
 * Exact at every moment together with shop_daily_deltas: writes append their figures there, in their own transaction,
 * by statement triggers on cards, scans and ledger_entries (src/server/db/functions/daily-stats.sql) — appends only,
 * so concurrent scans of one shop never wait for one row's lock; the job daily-stats.fold moves them here every
 * minute (foldDailyStats, src/server/modules/cards/dashboard.service.ts); readers add both. Rebuilt from the rows
 * when the shop's time zone changes, and by migration 0017.
 */
export const shopDailyStats = pgTable(
  "shop_daily_stats",
  {
    shopId: shopRef(),
    ...dayFigures(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.day] })],
);

/** Figures written since the last fold (see shopDailyStats): one row per writing statement and (shop, day). */
export const shopDailyDeltas = pgTable(
  "shop_daily_deltas",
  {
    id: bigint({ mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    shopId: shopRef(),
    ...dayFigures(),
  },
  (t) => [index().on(t.shopId, t.day)],
);

/**
 * Issue 11. A shop's devices numbered in the order they were first seen (« appareil 3 » in the scans list), stored
 * when a device first scans at the shop (trigger on scans, src/server/db/functions/daily-stats.sql), so the list
 * reads the page's numbers instead of numbering every device of the shop.
 */
export const shopDevices = pgTable(
  "shop_devices",
  {
    shopId: shopRef(),
    deviceId: text().notNull(),
    deviceNo: integer().notNull(),
    firstSeenAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.deviceId] }), uniqueIndex().on(t.shopId, t.deviceNo)],
);
