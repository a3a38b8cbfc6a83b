import { runAutomations } from "../modules/messages/automation-run.service.ts";
import { defineJob } from "./define.ts";

/**
 * Messages that send themselves (issue 27, ADR 0046): every enabled automation decided every 5 minutes. `now` (ISO)
 * is the clock, which tests set; the schedule sends none. Not a singleton: two runs at once (two processes, or a
 * test's) each decide different automations, and an occasion is recorded once whoever decides it.
 */
export const automationsRun = defineJob<"automations.run", { now?: string }>({
  name: "automations.run",
  queue: { expireInSeconds: 600, retryLimit: 3, retryDelay: 30, retryBackoff: true },
  schedule: { cron: "*/5 * * * *" },
  async run(data, { deps, logger }) {
    const result = await runAutomations(deps, data.now ? new Date(data.now) : new Date());
    if (result.sent + result.heldOut > 0) logger.info("automations: decided", result);
    return result;
  },
});
