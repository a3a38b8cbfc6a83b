import type { ScanCode } from "../../../../domain/loyalty/scan-code.ts";
import { randomKey } from "../../../lib/random-key.ts";

const attemptKey = (code: ScanCode) => `fidele:scan-attempt:${code.scanUid}:${code.token ?? ""}:${code.poster ?? ""}`;

/**
 * The idempotency key of one scan attempt: made once, kept in sessionStorage until the API has answered (a
 * retry, a reload, or the detour through sign-in sends the same key, so the visit is credited once).
 */
export function attemptIdempotencyKey(code: ScanCode): string {
  try {
    const existing = sessionStorage.getItem(attemptKey(code));
    if (existing) return existing;
    const key = randomKey();
    sessionStorage.setItem(attemptKey(code), key);
    return key;
  } catch {
    return randomKey();
  }
}

const CLAIM_PREFIX = "fidele:scan-claim:";
const claimKey = (code: ScanCode) => `${CLAIM_PREFIX}${code.scanUid}:${code.token ?? ""}`;
type KeptClaim = { claim: string; expiresAt: string };

/** Once answered, the attempt is over: the next scan of this code is a new visit. */
export function endAttempt(code: ScanCode) {
  try {
    sessionStorage.removeItem(attemptKey(code));
    localStorage.removeItem(claimKey(code));
  } catch {
    // Nothing kept.
  }
}

function readClaim(key: string): KeptClaim | null {
  try {
    const kept = JSON.parse(localStorage.getItem(key) ?? "null") as KeptClaim | null;
    if (kept && typeof kept.claim === "string" && Date.parse(kept.expiresAt) > Date.now()) return kept;
    localStorage.removeItem(key);
  } catch {
    // Unreadable: nothing kept.
  }
  return null;
}

/**
 * Keeps the scan claim of a code opened signed out. localStorage, not sessionStorage: the confirmation e-mail's
 * link often opens in a new tab of the same browser, which must still find it. Expired claims are dropped.
 */
export function keepClaim(code: ScanCode, kept: KeptClaim) {
  try {
    for (let i = localStorage.length - 1; i >= 0; i--) {
      const key = localStorage.key(i);
      if (key?.startsWith(CLAIM_PREFIX)) readClaim(key);
    }
    localStorage.setItem(claimKey(code), JSON.stringify(kept));
  } catch {
    // Private mode or full storage: the scan goes without a claim.
  }
}

/** The kept claim of this code, while it is valid. */
export function pendingClaim(code: ScanCode): string | undefined {
  return readClaim(claimKey(code))?.claim;
}
