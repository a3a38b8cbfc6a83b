import { sql } from "drizzle-orm";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import type { ShopAccess } from "../../lib/shop-access.ts";
import { shopTimezone } from "./customers.service.ts";

type DayRow = {
  day: string | Date;
  new_customers: number;
  scans: number;
  refused: number;
  points: number;
  redemptions: number;
};

/** /admin: the last `days` days, day by day in the shop's time zone, and the totals. */
export async function getDashboard(db: Db, access: ShopAccess, days: number) {
  const shop = await shopTimezone(db, access);
  const tz = shop.timezone;
  const today = localParts(new Date(), tz).date;
  const first = addDays(today, -(days - 1));
  const from = zonedToUtc(first, 0, tz);
  // shopTimezone has checked the access: the shop id is a value here (real planner estimates, no JIT).
  const scope = access.shopId;
  // A year is 365 rows of shop_daily_stats plus the deltas not yet folded into them (a minute's writes), kept exact
  // by triggers in the writes' transactions (src/server/db/functions/daily-stats.sql); never the shop's scans or ledger.
  const series = await db.execute<DayRow & { flagged: number }>(sql`
    with d as (
      select day, sum(new_customers)::int as new_customers, sum(scans)::int as scans, sum(refused)::int as refused,
             sum(flagged)::int as flagged, sum(points)::bigint as points, sum(redemptions)::int as redemptions
      from (
        select day, new_customers, scans, refused, flagged, points, redemptions
        from shop_daily_stats where shop_id = ${scope} and day >= ${first}::date
        union all
        select day, new_customers, scans, refused, flagged, points, redemptions
        from shop_daily_deltas where shop_id = ${scope} and day >= ${first}::date
      ) x
      group by day
    )
    select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(d.new_customers, 0) as new_customers,
           coalesce(d.scans, 0) as scans, coalesce(d.refused, 0) as refused, coalesce(d.points, 0) as points,
           coalesce(d.redemptions, 0) as redemptions, coalesce(d.flagged, 0) as flagged
    from generate_series(${first}::date, greatest(${today}::date, (select max(day) from d)), interval '1 day') days(day)
    left join d on d.day = days.day
    order by days.day`);
  // Active: a card whose last accepted visit is in the period (cards.last_scan_at only moves forward, to each
  // accepted scan's time): read by cards_shop_last_scan_idx, not by counting the period's scans.
  const totals = await db.execute<{
    customers: number;
    active_customers: number;
    outstanding: number;
  }>(sql`
    select
      (select count(*)::int from cards where shop_id = ${scope}) as customers,
      (select count(*)::int from cards where shop_id = ${scope}
         and coalesce(last_scan_at, '-infinity'::timestamptz) >= ${from}::timestamptz) as active_customers,
      (select coalesce(sum(balance), 0)::bigint from cards where shop_id = ${scope}) as outstanding`);
  const inPeriod = series.rows.filter((r) => String(r.day) <= today);
  const perDay = inPeriod.map((r) => ({
    date: typeof r.day === "string" ? r.day : new Date(r.day).toISOString().slice(0, 10),
    newCustomers: Number(r.new_customers),
    scans: Number(r.scans),
    refused: Number(r.refused),
    points: Number(r.points),
    redemptions: Number(r.redemptions),
  }));
  const t = totals.rows[0]!;
  return {
    from: first,
    to: today,
    days: perDay,
    totals: {
      customers: Number(t.customers),
      newCustomers: perDay.reduce((s, d) => s + d.newCustomers, 0),
      activeCustomers: Number(t.active_customers),
      scans: perDay.reduce((s, d) => s + d.scans, 0),
      refused: perDay.reduce((s, d) => s + d.refused, 0),
      flagged: series.rows.reduce((n, r) => n + Number(r.flagged), 0),
      points: perDay.reduce((s, d) => s + d.points, 0),
      redemptions: perDay.reduce((s, d) => s + d.redemptions, 0),
      outstandingBalance: Number(t.outstanding),
    },
  };
}

/**
 * Issue 11 (docs/decisions/0027): writes append the dashboard's figures to shop_daily_deltas (no row lock shared
 * between concurrent scans); this moves their sums into shop_daily_stats (fidele_daily_stats_fold, one
 * transaction), every minute (the job daily-stats.fold), so a dashboard reads a year's 365 rows and at most a
 * minute of deltas. Readers add both: the figures are exact whether or not the fold has run. The days folded.
 */
export async function foldDailyStats(db: Db): Promise<number> {
  const result = await db.execute<{ days: number }>(sql`select fidele_daily_stats_fold() as days`);
  return Number(result.rows[0]?.days ?? 0);
}
