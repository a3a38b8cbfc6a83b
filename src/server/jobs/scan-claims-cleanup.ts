import { sql } from "drizzle-orm";
import { CLAIM_TTL_SECONDS } from "../../domain/loyalty/scan-code.ts";
import { defineJob } from "./define.ts";

/**
 * A spent claim's row only matters while the claim itself could still be shown (ADR 0012): a claim is
 * refused once it is CLAIM_TTL_SECONDS old, and it was issued before it was used. Rows older than that,
 * plus an hour for clock skew, are deleted hourly, in batches (PGlite shares one connection).
 */
export const KEEP_SPENT_CLAIMS_SECONDS = CLAIM_TTL_SECONDS + 3600;
const BATCH = 1000;

export const scanClaimsCleanup = defineJob({
  name: "scan-claims.cleanup",
  queue: { policy: "stately", expireInSeconds: 600, retryLimit: 3, retryDelay: 60, retryBackoff: true },
  schedule: { cron: "17 * * * *" },
  async run(_data, { deps, logger }) {
    let deleted = 0;
    for (;;) {
      const result = await deps.db.execute(sql`
        delete from scan_claims where nonce in (
          select nonce from scan_claims
          where used_at < now() - make_interval(secs => ${KEEP_SPENT_CLAIMS_SECONDS})
          limit ${BATCH})
        returning 1 as gone`);
      // Rows returned, not rowCount: PGlite's driver and pg's name the count differently.
      const n = result.rows.length;
      deleted += n;
      if (n < BATCH) break;
    }
    if (deleted > 0) logger.info(`scan claims: ${deleted} spent claims older than their lifetime deleted`);
    return { deleted };
  },
});
