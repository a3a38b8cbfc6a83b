import { eq, sql } from "drizzle-orm";
import { CLAIM_TTL_SECONDS } from "../../../domain/loyalty/scan-code.ts";
import type { Db } from "../../db/client.ts";
import { scanClaims } from "../../db/schema/index.ts";

/**
 * The rows of spent scan claims (ADR 0012): one per claim used, so a claim counts once; deleted once the claim
 * itself could no longer be shown. A claim is refused once it is CLAIM_TTL_SECONDS old, and it was issued before it
 * was used: rows older than that, plus an hour for clock skew, go (the job scan-claims.cleanup, hourly).
 */
export const KEEP_SPENT_CLAIMS_SECONDS = CLAIM_TTL_SECONDS + 3600;
/** Deleted at a time: PGlite shares one connection with the app. */
const CLEANUP_BATCH = 1000;

/**
 * Records the claim's nonce for this account and attempt. True for its first use and for a retry of that
 * same attempt (same account, same idempotency key); false for anyone else, or another attempt.
 */
export async function spendClaim(
  db: Db,
  nonce: string,
  shopId: string,
  userId: string,
  idempotencyKey: string,
): Promise<boolean> {
  const inserted = await db
    .insert(scanClaims)
    .values({ nonce, shopId, userId, idempotencyKey })
    .onConflictDoNothing()
    .returning({ nonce: scanClaims.nonce });
  if (inserted.length > 0) return true;
  // A second statement sees the row of a concurrent first use, which the insert above waited for.
  const [spent] = await db
    .select({ userId: scanClaims.userId, idempotencyKey: scanClaims.idempotencyKey })
    .from(scanClaims)
    .where(eq(scanClaims.nonce, nonce));
  return spent?.userId === userId && spent.idempotencyKey === idempotencyKey;
}

/** Deletes the spent claims older than a claim can live; how many went. */
export async function deleteSpentScanClaims(db: Db): Promise<number> {
  let deleted = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from scan_claims where nonce in (
        select nonce from scan_claims
        where used_at < now() - make_interval(secs => ${KEEP_SPENT_CLAIMS_SECONDS})
        limit ${CLEANUP_BATCH})
      returning 1 as gone`);
    // Rows returned, not rowCount: PGlite's driver and pg's name the count differently.
    const n = result.rows.length;
    deleted += n;
    if (n < CLEANUP_BATCH) return deleted;
  }
}
