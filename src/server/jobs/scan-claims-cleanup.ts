import { deleteSpentScanClaims } from "../modules/cards/scan-claims.service.ts";
import { defineJob } from "./define.ts";

/** Spent scan claims older than a claim can live (cards/scan-claims.service.ts), hourly. */
export const scanClaimsCleanup = defineJob({
  name: "scan-claims.cleanup",
  queue: { policy: "stately", expireInSeconds: 600, retryLimit: 3, retryDelay: 60, retryBackoff: true },
  schedule: { cron: "17 * * * *" },
  async run(_data, { deps, logger }) {
    const deleted = await deleteSpentScanClaims(deps.db);
    if (deleted > 0) logger.info(`scan claims: ${deleted} spent claims older than their lifetime deleted`);
    return { deleted };
  },
});
