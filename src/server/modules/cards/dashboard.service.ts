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
  const series = await db.execute<DayRow>(sql`
    with days as (
      select d::date as day from generate_series(${first}::date, ${today}::date, interval '1 day') d
    ), s as (
      select (created_at at time zone ${tz})::date as day,
             count(*) filter (where outcome = 'accepted')::int as scans,
             count(*) filter (where outcome <> 'accepted')::int as refused
      from scans where shop_id = ${scope} and created_at >= ${from}::timestamptz group by 1
    ), l as (
      select (created_at at time zone ${tz})::date as day,
             coalesce(sum(delta) filter (where kind in ('scan', 'double_points', 'bonus')), 0)::int as points,
             count(*) filter (where kind = 'redemption')::int as redemptions
      from ledger_entries where shop_id = ${scope} and created_at >= ${from}::timestamptz group by 1
    ), c as (
      select (created_at at time zone ${tz})::date as day, count(*)::int as new_customers
      from cards where shop_id = ${scope} and created_at >= ${from}::timestamptz group by 1
    )
    select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(c.new_customers, 0) as new_customers, coalesce(s.scans, 0) as scans,
           coalesce(s.refused, 0) as refused, coalesce(l.points, 0) as points, coalesce(l.redemptions, 0) as redemptions
    from days left join s on s.day = days.day left join l on l.day = days.day left join c on c.day = days.day
    order by days.day`);
  const totals = await db.execute<{
    customers: number;
    active_customers: number;
    flagged: number;
    outstanding: number;
  }>(sql`
    select
      (select count(*)::int from cards where shop_id = ${scope}) as customers,
      (select count(distinct card_id)::int from scans where shop_id = ${scope} and outcome = 'accepted' and created_at >= ${from}::timestamptz) as active_customers,
      (select count(*)::int from scans where shop_id = ${scope} and cardinality(flags) > 0 and created_at >= ${from}::timestamptz) as flagged,
      (select coalesce(sum(balance), 0)::int from cards where shop_id = ${scope}) as outstanding`);
  const perDay = series.rows.map((r) => ({
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
      flagged: Number(t.flagged),
      points: perDay.reduce((s, d) => s + d.points, 0),
      redemptions: perDay.reduce((s, d) => s + d.redemptions, 0),
      outstandingBalance: Number(t.outstanding),
    },
  };
}
