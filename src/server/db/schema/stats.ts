import { date, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { shops } from "./shops.ts";

/**
 * Issue 11. The dashboard's figures per shop and local day (the shop's time zone), so that a year costs 365 days of
 * rows. Kept exact in the same transaction as every write by triggers on cards, scans and ledger_entries
 * (src/server/db/functions/daily-stats.sql); rebuilt from them when the shop's time zone changes and by migration 0017.
 * A day has up to DAILY_STATS_BUCKETS rows (`bucket`, from the card's id), so that concurrent scans of one shop do not
 * all wait for one row's lock; the dashboard sums them.
 */
export const shopDailyStats = pgTable(
  "shop_daily_stats",
  {
    shopId: text()
      .notNull()
      .references(() => shops.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
    bucket: smallint().notNull(),
    /** Cards made that day. */
    newCustomers: integer().notNull().default(0),
    /** Scans accepted / refused, and those with a flag. */
    scans: integer().notNull().default(0),
    refused: integer().notNull().default(0),
    flagged: integer().notNull().default(0),
    /** Points earned (ledger kinds scan, double_points, bonus) and `redemption` entries. */
    points: integer().notNull().default(0),
    redemptions: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.day, t.bucket] })],
);

/**
 * Issue 11. A shop's devices numbered in the order they were first seen (« appareil 3 » in the scans list), stored
 * when a device first scans at the shop (trigger on scans, src/server/db/functions/daily-stats.sql), so the list
 * reads the page's numbers instead of numbering every device of the shop.
 */
export const shopDevices = pgTable(
  "shop_devices",
  {
    shopId: text()
      .notNull()
      .references(() => shops.id, { onDelete: "cascade" }),
    deviceId: text().notNull(),
    deviceNo: integer().notNull(),
    firstSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.deviceId] }), uniqueIndex().on(t.shopId, t.deviceNo)],
);
