import { pollZettlePurchases } from "../modules/till/zettle-poll.service.ts";
import { defineJob } from "./define.ts";

/** Zettle purchases the Pusher API did not deliver, found by listing each connected shop's day (ADR 0051). Hourly. */
export const tillZettlePoll = defineJob({
  name: "till.zettle-poll",
  queue: { policy: "stately", expireInSeconds: 1800, retryLimit: 2, retryDelay: 120 },
  schedule: { cron: "23 * * * *" },
  async run(_data, { deps }) {
    return pollZettlePurchases(deps);
  },
});
