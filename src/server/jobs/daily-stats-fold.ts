import { sql } from "drizzle-orm";
import { defineJob } from "./define.ts";

/**
 * Issue 11 (docs/decisions/0027): writes append the dashboard's figures to shop_daily_deltas (no row lock shared
 * between concurrent scans); every minute their sums move into shop_daily_stats (fidele_daily_stats_fold, one
 * transaction), so a dashboard reads a year's 365 rows and at most a minute of deltas. Readers add both: the figures
 * are exact whether or not the fold has run.
 */
export const dailyStatsFold = defineJob({
  name: "daily-stats.fold",
  queue: { policy: "stately", expireInSeconds: 300, retryLimit: 3, retryDelay: 30, retryBackoff: true },
  schedule: { cron: "* * * * *" },
  async run(_data, { deps }) {
    const result = await deps.db.execute<{ days: number }>(sql`select fidele_daily_stats_fold() as days`);
    return { days: Number(result.rows[0]?.days ?? 0) };
  },
});
