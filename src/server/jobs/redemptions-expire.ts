import { expireDueRedemptions } from "../modules/rewards/redemptions.service.ts";
import { defineJob } from "./define.ts";

/**
 * Pending redemptions past their time give their points back (fidele_expire_redemptions), also
 * those that expired while no server ran. Every minute (cron's grain) and once at start; every
 * read of a redemption still expires it on the spot, so what people see does not wait for this.
 */
export const redemptionsExpire = defineJob({
  name: "redemptions.expire",
  // One queued and one active at most: two processes' ticks and start-up sends fold into one sweep.
  queue: { policy: "stately", expireInSeconds: 120, retryLimit: 3, retryDelay: 5, retryBackoff: true },
  schedule: { cron: "* * * * *" },
  runAtStart: true,
  async run(_data, { deps, logger }) {
    const expired = await expireDueRedemptions(deps.database);
    if (expired > 0) logger.info(`redemptions: ${expired} expired, points given back`);
    return { expired };
  },
});
