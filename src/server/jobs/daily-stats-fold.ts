import { foldDailyStats } from "../modules/cards/dashboard.service.ts";
import { defineJob } from "./define.ts";

/** The dashboard's figures written since the last minute, folded into their days (cards/dashboard.service.ts). */
export const dailyStatsFold = defineJob({
  name: "daily-stats.fold",
  queue: { policy: "stately", expireInSeconds: 300, retryLimit: 3, retryDelay: 30, retryBackoff: true },
  schedule: { cron: "* * * * *" },
  async run(_data, { deps }) {
    return { days: await foldDailyStats(deps.db) };
  },
});
