import { type SQL, sql } from "drizzle-orm";
import {
  AT_RISK_FACTOR,
  AT_RISK_MIN_DAYS,
  LOST_AFTER_DAYS,
  REGULAR_VISITS,
  RHYTHM_REFRESH_MINUTES,
} from "../../domain/loyalty/retention.ts";
import type { Db } from "../db/client.ts";

/**
 * A customer's rhythm and who is at risk (rules: src/domain/loyalty/retention.ts) as SQL on the card alone (first
 * visit, last visit, visits), never the shop's visits; and each shop's figures of them (median rhythm, regulars,
 * at risk), a whole pass over its cards kept in `shop_rhythms` (refreshed by the job retention.fold: hourly for a
 * shop visited since, daily otherwise), which
 * the dashboard's retention (modules/cards/retention.service.ts) and the win-back's suggested absence
 * (modules/messages/automations.service.ts) read.
 */

/** A card's rhythm in days: the mean time between its visits (meaningful from `REGULAR_VISITS` visits). */
export const rhythmDaysSql = (c: string): SQL =>
  sql.raw(`(extract(epoch from (${c}.last_scan_at - ${c}.created_at)) / 86400.0 / (${c}.visits - 1))`);

const at = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/** SQL: card `c` is at risk at `now`: a regular past AT_RISK_FACTOR times their own rhythm, not yet gone. */
export function atRiskSql(now: Date): SQL {
  const absentDays = sql`(extract(epoch from (${at(now)} - c.last_scan_at)) / 86400.0)`;
  // The two bounds on last_scan_at are implied by the rest; written out, they let an index range read them.
  return sql`c.visits >= ${REGULAR_VISITS} and c.last_scan_at is not null
    and c.last_scan_at > ${at(now)} - make_interval(days => ${LOST_AFTER_DAYS})
    and c.last_scan_at < ${at(now)} - make_interval(days => ${AT_RISK_MIN_DAYS})
    and ${absentDays} > greatest(${AT_RISK_FACTOR} * ${rhythmDaysSql("c")}, ${AT_RISK_MIN_DAYS})`;
}

type Rhythm = { medianDays: number | null; regulars: number; atRisk: number };

/** One pass over a shop's cards at `now`: its regulars' median rhythm, how many regulars, how many at risk. */
async function computeRhythm(db: Db, shopId: string, now: Date): Promise<Rhythm> {
  const [row] = (
    await db.execute<{ median: number | null; regulars: number; at_risk: number }>(sql`
      select percentile_cont(0.5) within group (order by ${rhythmDaysSql("c")})::float8 as median,
        count(*)::int as regulars, count(*) filter (where c.user_id is not null and ${atRiskSql(now)})::int as at_risk
      from cards c where c.shop_id = ${shopId} and c.visits >= ${REGULAR_VISITS} and c.last_scan_at is not null`)
  ).rows;
  return {
    medianDays: row?.median === null || row?.median === undefined ? null : Number(row.median),
    regulars: Number(row?.regulars ?? 0),
    atRisk: Number(row?.at_risk ?? 0),
  };
}

/** Works a shop's rhythm out at `now` and keeps it. */
export async function refreshRhythm(db: Db, shopId: string, now: Date): Promise<Rhythm> {
  const r = await computeRhythm(db, shopId, now);
  await db.execute(sql`
    insert into shop_rhythms (shop_id, computed_at, median_days, regulars, at_risk)
    values (${shopId}, ${at(now)}, ${r.medianDays}, ${r.regulars}, ${r.atRisk})
    on conflict (shop_id) do update set computed_at = excluded.computed_at, median_days = excluded.median_days,
      regulars = excluded.regulars, at_risk = excluded.at_risk`);
  return r;
}

/** A shop's rhythm as last kept (worked out now when it never was, or is older than RHYTHM_REFRESH_MINUTES × 2). */
export async function readRhythm(db: Db, shopId: string, now: Date): Promise<Rhythm & { computedAt: Date }> {
  const [row] = (
    await db.execute<{ computed_at: string | Date; median_days: number | null; regulars: number; at_risk: number }>(sql`
      select computed_at, median_days, regulars, at_risk from shop_rhythms where shop_id = ${shopId}
        and computed_at > ${at(now)} - make_interval(mins => ${2 * RHYTHM_REFRESH_MINUTES})`)
  ).rows;
  if (!row) return { ...(await refreshRhythm(db, shopId, now)), computedAt: now };
  return {
    medianDays: row.median_days === null ? null : Number(row.median_days),
    regulars: Number(row.regulars),
    atRisk: Number(row.at_risk),
    computedAt: new Date(row.computed_at),
  };
}
