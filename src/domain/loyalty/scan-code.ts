/**
 * Shop codes that cannot be replayed from a photo.
 *
 * The counter screen shows `${APP_URL}/boutique/{scanUid}?t={token}` where the token
 * is `{step in base 36}.{HMAC-SHA256(shop key, "r:{scanUid}:{step}")}` truncated to
 * 96 bits, and a step is 30 s (RFC 6238's TOTP time step). The current and the
 * previous step are accepted, so a token is refused at most 60 s after it was
 * first shown. The printed poster carries `?p={HMAC(shop key, "p:{scanUid}")}`:
 * a static code that only counts when the shop allows posters. Renewing the shop
 * key voids every poster and token at once.
 *
 * Web Crypto only (globalThis.crypto.subtle): the domain stays free of node: imports.
 */
export const CODE_STEP_SECONDS = 30;
/** Steps accepted: the current one and the one before. */
export const CODE_STEPS_ACCEPTED = 2;
/** The bytes of an HMAC a token keeps (96 bits). */
export const MAC_BYTES = 12;

export type TokenCheck = "valid" | "stale" | "invalid";

export function timeStep(nowMs: number): number {
  return Math.floor(nowMs / 1000 / CODE_STEP_SECONDS);
}

/** When the token of `step` stops being the current one (the reader refreshes then). */
export function stepEndsAt(step: number): number {
  return (step + 1) * CODE_STEP_SECONDS * 1000;
}

function base64url(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  const bin = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** A fresh random secret (base64url), e.g. a shop's HMAC key (32 bytes) or scan_uid (12 bytes). */
export function randomSecret(bytes = 32): string {
  return base64url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}

export function importCodeKey(secret: string): Promise<CryptoKey> {
  return globalThis.crypto.subtle.importKey(
    "raw",
    fromBase64url(secret) as Uint8Array<ArrayBuffer>,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
}

/** HMAC-SHA-256 of `message`, its first `bytes` bytes in base64url (scan codes 12, receipt codes 16). */
export async function hmacBase64url(key: CryptoKey, message: string, bytes = MAC_BYTES): Promise<string> {
  const sig = await globalThis.crypto.subtle.sign("HMAC", key, new TextEncoder().encode(message));
  return base64url(new Uint8Array(sig).slice(0, bytes));
}

/** Compares two strings in time independent of where they differ. */
export function safeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export async function rotatingToken(key: CryptoKey, scanUid: string, step: number): Promise<string> {
  return `${step.toString(36)}.${await hmacBase64url(key, `r:${scanUid}:${step}`)}`;
}

/**
 * valid: signed for this or the previous step; stale: well signed but older;
 * invalid: malformed, forged, or from the future.
 */
export async function verifyRotatingToken(
  key: CryptoKey,
  scanUid: string,
  token: string,
  nowMs: number,
): Promise<TokenCheck> {
  const match = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{16})$/.exec(token);
  if (!match) return "invalid";
  const step = Number.parseInt(match[1]!, 36);
  const current = timeStep(nowMs);
  if (!Number.isSafeInteger(step) || step > current) return "invalid";
  const expected = await rotatingToken(key, scanUid, step);
  if (!safeEqual(expected, token)) return "invalid";
  return current - step < CODE_STEPS_ACCEPTED ? "valid" : "stale";
}

export function posterToken(key: CryptoKey, scanUid: string): Promise<string> {
  return hmacBase64url(key, `p:${scanUid}`);
}

/**
 * A scan claim: the server's signed note that a valid counter code was opened at a given time, so a shopper
 * who had to sign up first (an e-mail to confirm takes more than 60 s) is still credited for that visit.
 * `{step}.{issued at, unix s}.{nonce}.{HMAC(shop key, "c:{scanUid}:{step}:{issuedAt}:{nonce}")}`, all base 36
 * or base64url. It only stands in for the token it was issued for (same step), for CLAIM_TTL_SECONDS; the
 * server records its nonce at first use, so one claim credits one account once (docs/decisions/0012).
 */
export const CLAIM_TTL_SECONDS = 30 * 60;
/** Clock drift tolerated between the servers that issue and check a claim. */
const CLAIM_SKEW_SECONDS = 30;

type ClaimCheck = { ok: true; nonce: string } | { ok: false; reason: "invalid" | "expired" };

/** The step of a token (`{step}.{mac}`), or null when malformed. */
export function tokenStepOf(token: string): number | null {
  const match = /^([0-9a-z]{1,12})\./.exec(token);
  if (!match) return null;
  const step = Number.parseInt(match[1]!, 36);
  return Number.isSafeInteger(step) ? step : null;
}

export async function signScanClaim(
  key: CryptoKey,
  scanUid: string,
  step: number,
  issuedAtMs: number,
  nonce: string,
): Promise<string> {
  const issuedAt = Math.floor(issuedAtMs / 1000);
  return `${step.toString(36)}.${issuedAt.toString(36)}.${nonce}.${await hmacBase64url(key, `c:${scanUid}:${step}:${issuedAt}:${nonce}`)}`;
}

/**
 * ok: signed by this shop's key for this token's step, issued while that token was valid, not in the future
 * and at most CLAIM_TTL_SECONDS ago. expired: well signed but too old. invalid: anything else.
 */
export async function verifyScanClaim(
  key: CryptoKey,
  scanUid: string,
  claim: string,
  tokenStep: number,
  nowMs: number,
): Promise<ClaimCheck> {
  const match = /^([0-9a-z]{1,12})\.([0-9a-z]{1,12})\.([A-Za-z0-9_-]{16,64})\.([A-Za-z0-9_-]{16})$/.exec(claim);
  if (!match) return { ok: false, reason: "invalid" };
  const step = Number.parseInt(match[1]!, 36);
  const issuedAt = Number.parseInt(match[2]!, 36);
  const nonce = match[3]!;
  if (step !== tokenStep || !Number.isSafeInteger(issuedAt)) return { ok: false, reason: "invalid" };
  // Issued while the token was the current or the previous one.
  const age = timeStep(issuedAt * 1000) - step;
  if (age < 0 || age >= CODE_STEPS_ACCEPTED) return { ok: false, reason: "invalid" };
  const expected = await hmacBase64url(key, `c:${scanUid}:${step}:${issuedAt}:${nonce}`);
  if (!safeEqual(expected, match[4]!)) return { ok: false, reason: "invalid" };
  const nowS = Math.floor(nowMs / 1000);
  if (issuedAt > nowS + CLAIM_SKEW_SECONDS) return { ok: false, reason: "invalid" };
  if (nowS - issuedAt > CLAIM_TTL_SECONDS) return { ok: false, reason: "expired" };
  return { ok: true, nonce };
}

export type ScanCode = { scanUid: string; token: string | null; poster: string | null };

export function scanUrl(appUrl: string, code: ScanCode): string {
  const base = `${appUrl.replace(/\/+$/, "")}/boutique/${encodeURIComponent(code.scanUid)}`;
  if (code.token) return `${base}?t=${encodeURIComponent(code.token)}`;
  if (code.poster) return `${base}?p=${encodeURIComponent(code.poster)}`;
  return base;
}

export const SCAN_UID_PATTERN = /^[A-Za-z0-9_-]{8,64}$/;

/**
 * Reads a scanned or typed code: a full URL of /boutique/{scanUid}?t=… (any host:
 * the scanner is on our own site), a bare path, or "scanUid?t=…".
 */
export function parseScanCode(text: string): ScanCode | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed, "http://x.invalid/boutique/");
  } catch {
    return null;
  }
  const m = /\/boutique\/([^/?#]+)\/?$/.exec(url.pathname);
  if (!m) return null;
  const scanUid = decodeURIComponent(m[1]!);
  if (!SCAN_UID_PATTERN.test(scanUid)) return null;
  return { scanUid, token: url.searchParams.get("t"), poster: url.searchParams.get("p") };
}
