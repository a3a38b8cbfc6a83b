import { eq } from "drizzle-orm";
import { type DoublePointsPeriod, multiplierAt } from "../../../domain/loyalty/double-points.ts";
import { type Closure, isFarOutsideHours, type WeeklyHours } from "../../../domain/loyalty/hours.ts";
import { cardProgress } from "../../../domain/loyalty/ledger.ts";
import {
  type CardMode,
  SHARED_DEVICE_ACCOUNTS,
  SHARED_DEVICE_WINDOW_DAYS,
  type ScanMethod,
  type ScanOutcome,
  scanMessageFr,
} from "../../../domain/loyalty/scan-rules.ts";
import {
  CLAIM_TTL_SECONDS,
  importCodeKey,
  randomSecret,
  rotatingToken,
  safeEqual,
  signScanClaim,
  type TokenCheck,
  timeStep,
  tokenStepOf,
  posterToken,
  verifyRotatingToken,
  verifyScanClaim,
} from "../../../domain/loyalty/scan-code.ts";
import type { Database, Db } from "../../db/client.ts";
import { scanClaims, shops } from "../../db/schema/index.ts";
import { loadPeriods } from "../shops/shops.service.ts";

/**
 * The scan path. What it needs of a shop that rarely changes (its code key, hours,
 * double-points periods) is cached per process and keyed by scan_uid; the
 * database bumps the shop's config_version on any change to them, and the scan
 * function refuses a stale version, so a cache can be old but never wrong.
 * Everything else (status, rules, the card) is read under the card lock by
 * `fidele_scan` (migration 0002): one round trip per scan.
 */
type ScanProfile = {
  shopId: string;
  scanUid: string;
  configVersion: number;
  key: CryptoKey;
  timezone: string;
  weeklyHours: WeeklyHours;
  closures: Closure[];
  periods: DoublePointsPeriod[];
  /** The expected token of the last steps: every scan of a 30 s window checks against the same one. */
  tokens: Map<number, string>;
  /** The poster's signature, computed once. */
  poster?: string;
};

const MAX_CACHED = 5000;
const caches = new WeakMap<Db, Map<string, ScanProfile>>();

function cacheOf(db: Db): Map<string, ScanProfile> {
  let cache = caches.get(db);
  if (!cache) {
    cache = new Map();
    caches.set(db, cache);
  }
  return cache;
}

async function loadProfile(db: Db, scanUid: string): Promise<ScanProfile | null> {
  const [shop] = await db
    .select({
      id: shops.id,
      configVersion: shops.configVersion,
      codeSecret: shops.codeSecret,
      timezone: shops.timezone,
      weeklyHours: shops.weeklyHours,
      closures: shops.closures,
    })
    .from(shops)
    .where(eq(shops.scanUid, scanUid))
    .limit(1);
  if (!shop) return null;
  return {
    shopId: shop.id,
    scanUid,
    configVersion: shop.configVersion,
    key: await importCodeKey(shop.codeSecret),
    timezone: shop.timezone,
    weeklyHours: shop.weeklyHours,
    closures: shop.closures,
    periods: await loadPeriods(db, shop.id),
    tokens: new Map(),
  };
}

/**
 * verifyRotatingToken with the expected tokens of the current and previous steps
 * kept on the profile (one HMAC per shop per 30 s instead of one per scan); older
 * or malformed tokens take the full check, which tells "stale" from "invalid".
 */
async function checkToken(profile: ScanProfile, token: string, nowMs: number): Promise<TokenCheck> {
  const step = Number.parseInt(token.split(".", 1)[0] ?? "", 36);
  const current = timeStep(nowMs);
  if (step !== current && step !== current - 1) return verifyRotatingToken(profile.key, profile.scanUid, token, nowMs);
  let expected = profile.tokens.get(step);
  if (!expected) {
    expected = await rotatingToken(profile.key, profile.scanUid, step);
    profile.tokens.set(step, expected);
    for (const s of profile.tokens.keys()) if (s < current - 1) profile.tokens.delete(s);
  }
  return safeEqual(expected, token) ? "valid" : "invalid";
}

export async function getScanProfile(db: Db, scanUid: string, fresh = false): Promise<ScanProfile | null> {
  const cache = cacheOf(db);
  const cached = fresh ? undefined : cache.get(scanUid);
  if (cached) return cached;
  const profile = await loadProfile(db, scanUid);
  if (profile) {
    if (cache.size >= MAX_CACHED) cache.delete(cache.keys().next().value as string);
    cache.set(scanUid, profile);
  } else {
    cache.delete(scanUid);
  }
  return profile;
}

/** Forget a shop's cached profile in this process (other processes learn from config_version). */
export function forgetScanProfile(db: Db, scanUid: string): void {
  cacheOf(db).delete(scanUid);
}

const SCAN_SQL = "select fidele_scan($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) as r";

/** The raw answer of fidele_scan (stored as the scan's `response`). */
export type ScanRecord = {
  scanId: string;
  outcome: ScanOutcome | "config_changed";
  shopId: string | null;
  shopName: string | null;
  shopSlug: string | null;
  timezone: string;
  mode: CardMode;
  stampsGoal: number | null;
  cardId: string | null;
  delta: number;
  multiplier: number;
  periodLabel: string | null;
  balance: number | null;
  lifetime: number | null;
  nextAt: string | null;
  createdAt: string;
  replayed?: boolean;
};

type ScanParams = [
  actorId: string,
  userId: string,
  scanUid: string,
  key: string,
  method: ScanMethod,
  code: TokenCheck,
  configVersion: number | null,
  multiplier: number,
  periodLabel: string | null,
  outsideHours: boolean,
  deviceId: string | null,
  sharedDeviceAccounts: number,
  sharedDeviceDays: number,
];

/** One round trip: a named prepared statement on PostgreSQL (planned once per connection), a query on PGlite. */
async function callScan(database: Database, params: ScanParams): Promise<ScanRecord> {
  if (database.pool) {
    const res = await database.pool.query<{ r: ScanRecord }>({ name: "fidele_scan", text: SCAN_SQL, values: params });
    return res.rows[0]!.r;
  }
  const res = await database.pglite!.query<{ r: ScanRecord }>(SCAN_SQL, params);
  return res.rows[0]!.r;
}

export type ScanInput = {
  scanUid: string;
  token: string | null;
  poster: string | null;
  /** A scan claim for `token` (issueScanClaim), sent after a detour through sign-in or sign-up. */
  claim?: string | null;
  deviceId: string | null;
  idempotencyKey: string;
};

/**
 * A counter code opened signed out: a signed claim that the code was valid now, so the visit still counts
 * once the person has signed in or up, which can take longer than the code's 60 s (ADR 0012). No claim for a
 * code that is not valid at this moment.
 */
export async function issueScanClaim(db: Db, input: { scanUid: string; token: string }, now = new Date()) {
  const none = { claim: null, expiresAt: null };
  // Fresh: a claim signed with a key the shop has just renewed would be refused later.
  const profile = await getScanProfile(db, input.scanUid, true);
  const step = tokenStepOf(input.token);
  if (!profile || step === null || (await checkToken(profile, input.token, now.getTime())) !== "valid") return none;
  const claim = await signScanClaim(profile.key, profile.scanUid, step, now.getTime(), randomSecret(16));
  const issuedAt = Math.floor(now.getTime() / 1000) * 1000;
  return { claim, expiresAt: new Date(issuedAt + CLAIM_TTL_SECONDS * 1000).toISOString() };
}

/**
 * Records the claim's nonce for this account and attempt. True for its first use and for a retry of that
 * same attempt (same account, same idempotency key); false for anyone else, or another attempt.
 */
async function spendClaim(db: Db, nonce: string, shopId: string, userId: string, idempotencyKey: string): Promise<boolean> {
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

/** A stale token with a claim: valid when the claim is authentic, in time, for this token, and not spent by another. */
async function codeByClaim(db: Db, profile: ScanProfile, userId: string, input: ScanInput, nowMs: number): Promise<TokenCheck> {
  const step = input.token ? tokenStepOf(input.token) : null;
  if (step === null || !input.claim) return "stale";
  const check = await verifyScanClaim(profile.key, profile.scanUid, input.claim, step, nowMs);
  if (!check.ok) return "stale";
  return (await spendClaim(db, check.nonce, profile.shopId, userId, input.idempotencyKey)) ? "valid" : "stale";
}

/**
 * Credits a visit (or records why not). `actorId` sent the request: the shopper
 * themself, or a staff member crediting them at the counter (method "staff").
 */
export async function performScan(
  database: Database,
  who: { userId: string; actorId: string },
  input: ScanInput,
  method: ScanMethod | "auto" = "auto",
  now = new Date(),
) {
  const db = database.db;
  const resolved: ScanMethod = method === "auto" ? (input.token ? "rotating" : "poster") : method;
  let record: ScanRecord | null = null;
  for (let attempt = 0; attempt < 3 && !record; attempt++) {
    const profile = await getScanProfile(db, input.scanUid, attempt > 0);
    let code: TokenCheck = "invalid";
    let multiplier = 1;
    let periodLabel: string | null = null;
    let outsideHours = false;
    if (profile) {
      if (resolved === "staff") code = "valid";
      else if (resolved === "rotating" && input.token) {
        code = await checkToken(profile, input.token, now.getTime());
        // Only the shopper's own scan can lean on a claim (a staff scan needs none).
        if (code === "stale" && input.claim && who.actorId === who.userId) {
          code = await codeByClaim(db, profile, who.userId, input, now.getTime());
        }
      }
      else if (resolved === "poster" && input.poster) {
        profile.poster ??= await posterToken(profile.key, profile.scanUid);
        code = safeEqual(profile.poster, input.poster) ? "valid" : "invalid";
      }
      const m = multiplierAt(profile.periods, now, profile.timezone);
      multiplier = m.multiplier;
      periodLabel = m.period ? `Points ×${m.multiplier} : ${m.period.label}` : null;
      outsideHours = isFarOutsideHours(profile.weeklyHours, profile.closures, now, profile.timezone);
    }
    const result = await callScan(database, [
      who.actorId,
      who.userId,
      input.scanUid,
      input.idempotencyKey,
      resolved,
      code,
      profile?.configVersion ?? null,
      multiplier,
      periodLabel,
      outsideHours,
      resolved === "staff" ? null : input.deviceId,
      SHARED_DEVICE_ACCOUNTS,
      SHARED_DEVICE_WINDOW_DAYS,
    ]);
    if (result.outcome !== "config_changed") record = result;
  }
  if (!record) throw new Error("scan profile kept changing");
  return { answer: toScanAnswer(record), replayed: Boolean(record.replayed) };
}

/** The API's answer to a scan: the same for a retry (built from the stored first answer). */
export function toScanAnswer(r: ScanRecord) {
  const outcome = r.outcome as ScanOutcome;
  const createdAt = new Date(r.createdAt);
  const nextAt = r.nextAt ? new Date(r.nextAt) : null;
  return {
    scanId: r.scanId,
    outcome,
    accepted: outcome === "accepted",
    message: scanMessageFr({
      outcome,
      shopName: r.shopName,
      mode: r.mode,
      delta: r.delta,
      multiplier: r.multiplier,
      nextAt,
      timezone: r.timezone,
      // The first answer's wording, also for a retry: "today" is the day of the scan.
      now: createdAt,
    }),
    shop: r.shopId ? { id: r.shopId, name: r.shopName ?? "", slug: r.shopSlug ?? "" } : null,
    card:
      r.cardId && r.balance !== null
        ? {
            id: r.cardId,
            mode: r.mode,
            balance: r.balance,
            lifetime: r.lifetime ?? 0,
            progress: cardProgress(r.mode, r.stampsGoal ?? 10, r.balance),
          }
        : null,
    delta: r.delta,
    multiplier: r.multiplier,
    periodLabel: r.periodLabel,
    nextAt: nextAt?.toISOString() ?? null,
    scannedAt: createdAt.toISOString(),
  };
}

export type ScanAnswer = ReturnType<typeof toScanAnswer>;
