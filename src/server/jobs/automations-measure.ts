import { measureAutomations } from "../modules/messages/automations.service.ts";
import { defineJob } from "./define.ts";

/**
 * What followed each automation's occasions (visits, points, rewards, whether the message reached them) until their
 * return window closes, and each automation's next 7 days: every 5 minutes (issue 27, ADR 0046). `now` (ISO) is
 * the clock, which tests set; the schedule sends none.
 */
export const automationsMeasure = defineJob<"automations.measure", { now?: string }>({
  name: "automations.measure",
  queue: { policy: "stately", expireInSeconds: 600, retryLimit: 3, retryDelay: 30, retryBackoff: true },
  schedule: { cron: "2-59/5 * * * *" },
  async run(data, { deps }) {
    return measureAutomations(deps.db, data.now ? new Date(data.now) : new Date());
  },
});
