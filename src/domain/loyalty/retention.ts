/**
 * Retention in plain words (issue 27 item 3): the rules behind the dashboard's figures, one home for each. The server
 * turns them into SQL (server/lib/rhythm.ts, server/modules/cards/retention.service.ts).
 *
 * A customer's rhythm is the mean number of days between their visits: (last visit − first visit) / (visits − 1),
 * known once they came `REGULAR_VISITS` times. They are « at risk » when their absence passes `AT_RISK_FACTOR` times
 * their own rhythm (and at least `AT_RISK_MIN_DAYS`), until `LOST_AFTER_DAYS` without a visit, when they count as
 * gone rather than at risk.
 */
export const REGULAR_VISITS = 3;
export const AT_RISK_FACTOR = 2;
export const AT_RISK_MIN_DAYS = 7;
export const LOST_AFTER_DAYS = 180;
/**
 * A shop's rhythm figures (median, regulars, at risk: a pass over all its cards) are worked out again this often once
 * the shop has had a visit since; without one, only the days passing move them (who is at risk), and once a day is
 * enough (RHYTHM_IDLE_REFRESH_MINUTES): a platform's hourly pass then follows its active shops, not all of them.
 */
export const RHYTHM_REFRESH_MINUTES = 60;
export const RHYTHM_IDLE_REFRESH_MINUTES = 24 * 60;
/** The cohort grid: this many months of first visits, each followed as many months after. */
export const COHORT_MONTHS = 12;
/** New and returning customers, week by week: this many weeks. */
export const RETENTION_WEEKS = 8;
/** The at-risk list shows this many people (the most loyal first), the top customers as many. */
export const LIST_SIZE = 10;

/** The first day of the month `n` months after (before, when negative) the month of `date` (YYYY-MM-DD). */
export function addMonths(date: string, n: number): string {
  const [y, m] = date.split("-").map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, "0")}-01`;
}

/** Whole months from the month of `from` to the month of `to`. */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split("-").map(Number) as [number, number];
  const [ty, tm] = to.split("-").map(Number) as [number, number];
  return (ty - fy) * 12 + (tm - fm);
}
