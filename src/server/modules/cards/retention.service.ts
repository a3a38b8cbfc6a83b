import { type SQL, sql } from "drizzle-orm";
import { personName } from "../../../domain/format.ts";
import {
  addMonths,
  COHORT_MONTHS,
  LIST_SIZE,
  monthsBetween,
  RETENTION_WEEKS,
  RHYTHM_IDLE_REFRESH_MINUTES,
  RHYTHM_REFRESH_MINUTES,
} from "../../../domain/loyalty/retention.ts";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import { atRiskSql, readRhythm, refreshRhythm, rhythmDaysSql } from "../../lib/rhythm.ts";
import type { ShopAccess } from "../../lib/shop-access.ts";
import { shopTimezone } from "./customers.service.ts";

/**
 * Retention in plain words on the dashboard (issue 27 item 3, ADR 0046; rules in src/domain/loyalty/retention.ts).
 * Every figure reads a rollup — the daily figures (shop_daily_stats), the cohort grid's past months
 * (shop_cohort_months, folded once a month has ended) and the shop's rhythm (shop_rhythms, hourly), both kept by the
 * job retention.fold — or a few cards through an index (this month's visitors, the ten most loyal at risk, the
 * top ten), never the shop's visits or ledger, so a shop of 50,000 customers and 500,000 visits reads them within the
 * back office's budget (`npm run bench -- scale`).
 */
const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;
const monthStartUtc = (month: string, tz: string) => zonedToUtc(month, 0, tz);
/** The local month (its first day) of a timestamp column, in the shop's time zone. */
const localMonth = (column: SQL, tz: string) =>
  sql`to_char(date_trunc('month', ${column} at time zone ${tz}), 'YYYY-MM-DD')`;

/**
 * Keeps every shop's retention rollups (the job retention.fold: hourly, and at start). For each shop with customers:
 * its rhythm worked out again once RHYTHM_REFRESH_MINUTES have passed if it had a visit since, and daily otherwise
 * (RHYTHM_IDLE_REFRESH_MINUTES; lib/rhythm.ts), and its cohort grid's ended
 * months not yet folded — of the customers of each month of first visit, how many had a credited visit in that
 * month. A shop whose time zone changed is folded again from its first month. At most `limit` shops a call (the next
 * call takes the rest). Returns the shops worked on.
 */
export async function foldRetention(db: Db, now: Date, limit = Number.POSITIVE_INFINITY): Promise<number> {
  const shops = await db.execute<{
    id: string;
    timezone: string;
    folded: string | null;
    folded_tz: string | null;
    rhythm_at: string | Date | null;
    visited: boolean;
  }>(sql`
    select s.id, s.timezone, to_char(f.folded_through, 'YYYY-MM-DD') as folded, f.timezone as folded_tz,
      r.computed_at as rhythm_at,
      exists (select 1 from cards c where c.shop_id = s.id and c.last_scan_at > r.computed_at) as visited
    from shops s left join shop_cohort_folds f on f.shop_id = s.id left join shop_rhythms r on r.shop_id = s.id
    where exists (select 1 from cards c where c.shop_id = s.id)`);
  let worked = 0;
  for (const shop of shops.rows) {
    if (worked >= limit) break;
    const age = shop.rhythm_at === null ? Number.POSITIVE_INFINITY : now.getTime() - new Date(shop.rhythm_at).getTime();
    const stale =
      age >= RHYTHM_IDLE_REFRESH_MINUTES * 60_000 || (shop.visited && age >= RHYTHM_REFRESH_MINUTES * 60_000);
    const lastEnded = addMonths(localParts(now, shop.timezone).date, -1);
    const sameZone = shop.folded_tz === shop.timezone;
    const folded = sameZone && shop.folded !== null && shop.folded >= lastEnded;
    if (folded && !stale) continue;
    worked++;
    if (stale) await refreshRhythm(db, shop.id, now);
    if (folded) continue;
    await db.transaction(async (tx) => {
      let from: string;
      if (sameZone && shop.folded !== null) from = addMonths(shop.folded, 1);
      else {
        await tx.execute(sql`delete from shop_cohort_months where shop_id = ${shop.id}`);
        const [first] = (
          await tx.execute<{ month: string | null }>(
            sql`select ${localMonth(sql`min(created_at)`, shop.timezone)} as month from cards where shop_id = ${shop.id}`,
          )
        ).rows;
        from = first?.month ?? lastEnded;
      }
      if (monthsBetween(from, lastEnded) >= 0) {
        await tx.execute(sql`
          insert into shop_cohort_months (shop_id, cohort_month, month, customers)
          select ${shop.id}, ${localMonth(sql`c.created_at`, shop.timezone)}::date,
            ${localMonth(sql`s.created_at`, shop.timezone)}::date, count(distinct c.id)::int
          from scans s join cards c on c.id = s.card_id
          where s.shop_id = ${shop.id} and s.outcome = 'accepted'
            and s.created_at >= ${at(monthStartUtc(from, shop.timezone))}
            and s.created_at < ${at(monthStartUtc(addMonths(lastEnded, 1), shop.timezone))}
          group by 2, 3
          on conflict (shop_id, cohort_month, month) do update set customers = excluded.customers`);
      }
      await tx.execute(sql`
        insert into shop_cohort_folds (shop_id, folded_through, timezone) values (${shop.id}, ${lastEnded}, ${shop.timezone})
        on conflict (shop_id) do update set folded_through = excluded.folded_through, timezone = excluded.timezone`);
    });
  }
  return worked;
}

type Cohort = {
  /** The month of first visit (its first day). */
  month: string;
  /** Customers whose first visit was that month. */
  customers: number;
  /** Of them, how many came back 1, 2, … months later (as far as months have passed). */
  returned: number[];
};

/** The cohort grid: the last COHORT_MONTHS months of first visits, each followed month by month until now. */
async function cohortGrid(db: Db, shopId: string, tz: string, now: Date): Promise<Cohort[]> {
  const thisMonth = addMonths(localParts(now, tz).date, 0);
  const firstCohort = addMonths(thisMonth, -(COHORT_MONTHS - 1));
  // Sizes: the daily rollup's new customers, month by month.
  const sizes = await db.execute<{ month: string; n: number }>(sql`
    select to_char(date_trunc('month', day), 'YYYY-MM-DD') as month, sum(new_customers)::int as n from (
      select day, new_customers from shop_daily_stats where shop_id = ${shopId} and day >= ${firstCohort}::date
      union all select day, new_customers from shop_daily_deltas where shop_id = ${shopId} and day >= ${firstCohort}::date
    ) x group by 1`);
  // Ended months: the monthly rollup; this month: the cards whose last visit is in it (an index range).
  const active = await db.execute<{ cohort: string; month: string; n: number }>(sql`
    select to_char(cohort_month, 'YYYY-MM-DD') as cohort, to_char(month, 'YYYY-MM-DD') as month, customers as n
    from shop_cohort_months where shop_id = ${shopId} and cohort_month >= ${firstCohort}::date and month > cohort_month
    union all
    select ${localMonth(sql`c.created_at`, tz)}, ${thisMonth}, count(*)::int from cards c
    where c.shop_id = ${shopId} and c.last_scan_at >= ${at(monthStartUtc(thisMonth, tz))}
      and c.created_at >= ${at(monthStartUtc(firstCohort, tz))} and c.created_at < ${at(monthStartUtc(thisMonth, tz))}
    group by 1`);
  const count = new Map(active.rows.map((r) => [`${r.cohort} ${r.month}`, Number(r.n)]));
  const size = new Map(sizes.rows.map((r) => [r.month, Number(r.n)]));
  const grid: Cohort[] = [];
  for (let i = 0; i < COHORT_MONTHS; i++) {
    const month = addMonths(firstCohort, i);
    const customers = size.get(month) ?? 0;
    const after = monthsBetween(month, thisMonth);
    grid.push({
      month,
      customers,
      returned: Array.from({ length: after }, (_, k) => count.get(`${month} ${addMonths(month, k + 1)}`) ?? 0),
    });
  }
  return grid.filter((c) => c.customers > 0 || c.returned.some((n) => n > 0));
}

/** New customers and visits of customers who had come before, week by week (Monday first), from the daily rollup. */
async function weeks(db: Db, shopId: string, tz: string, now: Date) {
  const today = localParts(now, tz).date;
  const monday = addDays(today, -((new Date(`${today}T00:00:00Z`).getUTCDay() + 6) % 7));
  const first = addDays(monday, -7 * (RETENTION_WEEKS - 1));
  const rows = await db.execute<{ week: string; new_customers: number; scans: number }>(sql`
    select to_char(date_trunc('week', day), 'YYYY-MM-DD') as week, sum(new_customers)::int as new_customers,
      sum(scans)::int as scans from (
      select day, new_customers, scans from shop_daily_stats where shop_id = ${shopId} and day >= ${first}::date
      union all select day, new_customers, scans from shop_daily_deltas where shop_id = ${shopId} and day >= ${first}::date
    ) x group by 1`);
  const byWeek = new Map(rows.rows.map((r) => [r.week, r]));
  return Array.from({ length: RETENTION_WEEKS }, (_, i) => {
    const week = addDays(first, 7 * i);
    const r = byWeek.get(week);
    const newCustomers = Number(r?.new_customers ?? 0);
    // A new customer's first visit is one of the week's visits; the rest are returns.
    return { week, newCustomers, returningVisits: Math.max(0, Number(r?.scans ?? 0) - newCustomers) };
  });
}

type PersonRow = {
  card_id: string;
  first_name: string | null;
  last_name: string | null;
  visits: number;
  lifetime: number;
  last_scan_at: string | Date | null;
};

const personDto = (r: PersonRow) => ({
  cardId: r.card_id,
  name: personName({ firstName: r.first_name, lastName: r.last_name }),
  visits: Number(r.visits),
  lifetime: Number(r.lifetime),
  lastVisit: r.last_scan_at === null ? null : new Date(r.last_scan_at).toISOString(),
});

/** Customers at risk: how many (the kept rhythm), and the most loyal of them now, with whether a win-back left. */
async function atRisk(db: Db, shopId: string, count: number, now: Date) {
  const rows = await db.execute<PersonRow & { rhythm: number; sent: boolean }>(sql`
    select c.id as card_id, p.first_name, p.last_name, c.visits, c.lifetime, c.last_scan_at, ${rhythmDaysSql("c")}::float8 as rhythm,
      exists (select 1 from automation_occasions o join automations a on a.id = o.automation_id
        where a.shop_id = c.shop_id and a.kind = 'win_back' and o.user_id = c.user_id and o.since = c.last_scan_at) as sent
    from cards c left join profiles p on p.id = c.user_id
    where c.shop_id = ${shopId} and c.user_id is not null and ${atRiskSql(now)}
    order by c.lifetime desc, c.id desc limit ${LIST_SIZE}`);
  return {
    count,
    people: rows.rows.map((r) => ({
      ...personDto(r),
      rhythmDays: Math.round(Number(r.rhythm) * 10) / 10,
      winBackSent: Boolean(r.sent),
    })),
  };
}

/**
 * /admin's retention section: the figures of issue 27 item 3 for the shop, at `now` (what the points outstanding and
 * the rewards waiting are worth is the dashboard's « Ce que vous devez », …/owed).
 */
export async function getRetention(db: Db, access: ShopAccess, now: Date) {
  const shop = await shopTimezone(db, access);
  const shopId = access.shopId;
  const tz = shop.timezone;
  // Independent reads, each through an index or a rollup: at once on a server's pool.
  const [top, rhythm, cohorts, byWeek] = await Promise.all([
    db.execute<PersonRow>(sql`
      select c.id as card_id, p.first_name, p.last_name, c.visits, c.lifetime, c.last_scan_at
      from cards c left join profiles p on p.id = c.user_id
      where c.shop_id = ${shopId} and c.user_id is not null order by c.lifetime desc, c.id desc limit ${LIST_SIZE}`),
    readRhythm(db, shopId, now),
    cohortGrid(db, shopId, tz, now),
    weeks(db, shopId, tz, now),
  ]);
  return {
    cohorts,
    medianDaysBetweenVisits: rhythm.medianDays === null ? null : Math.round(rhythm.medianDays * 10) / 10,
    atRisk: await atRisk(db, shopId, rhythm.atRisk, now),
    weeks: byWeek,
    top: top.rows.map(personDto),
  };
}
