import { foldRetention } from "../modules/cards/retention.service.ts";
import { defineJob } from "./define.ts";

/** The retention rollups (cards/retention.service.ts): the cohort grid's ended months, each shop's rhythm; hourly and at start. */
export const retentionFold = defineJob({
  name: "retention.fold",
  queue: { policy: "stately", expireInSeconds: 1800, retryLimit: 3, retryDelay: 60, retryBackoff: true },
  schedule: { cron: "41 * * * *" },
  runAtStart: true,
  async run(_data, { deps }) {
    return { shops: await foldRetention(deps.db, new Date()) };
  },
});
