import { releaseDueReferrals } from "../modules/referrals/release.service.ts";
import { defineJob } from "./define.ts";

/**
 * Parrainage (issue 28 item 1, ADR 0048): referrals whose friend has had a visit credited at the counter, released
 * (or held for the owner, or refused). Sent after such a visit, and every 5 minutes in case a process died between
 * the visit and the job. Two runs at once are safe: each referral is released by one of them.
 */
export const referralsRelease = defineJob<"referrals.release", Record<string, never>>({
  name: "referrals.release",
  queue: { expireInSeconds: 300, retryLimit: 3, retryDelay: 10, retryBackoff: true },
  schedule: { cron: "*/5 * * * *" },
  async run(_data, { deps, logger }) {
    const result = await releaseDueReferrals(deps);
    if (result.released + result.held + result.refused > 0) logger.info("referrals: released", result);
    return result;
  },
});
