import { asc, eq } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { type DoublePointsPeriod, multiplierAt } from "../../../domain/loyalty/double-points.ts";
import {
  type MultiplierCandidate,
  PERSONAL_OFFER_CANDIDATE,
  visitMultipliers,
} from "../../../domain/loyalty/rewards.ts";
import { type Closure, isFarOutsideHours, type WeeklyHours } from "../../../domain/loyalty/hours.ts";
import { cardProgress } from "../../../domain/loyalty/ledger.ts";
import { type AmountRounding, type EarnBy, pointsForAmount } from "../../../domain/loyalty/amount.ts";
import { importReceiptKey, parseReceiptCode, verifyReceiptCode } from "../../../domain/loyalty/receipt-code.ts";
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
  CODE_STEP_SECONDS,
  CODE_STEPS_ACCEPTED,
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
import { doublePointsPeriods, shops, vipTiers } from "../../db/schema/index.ts";
import { spendClaim } from "./scan-claims.service.ts";

/**
 * The scan path. What it needs of a shop that rarely changes (its code key, hours,
 * double-points periods) is cached per process and keyed by scan_uid; the
 * database bumps the shop's config_version on any change to them, and the scan
 * function refuses a stale version, so a cache can be old but never wrong.
 * Everything else (status, rules, the card) is read under the card lock by
 * `fidele_scan` (src/server/db/functions/scan.sql): one round trip per scan.
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
  /** How the card earns (issue 29): by visit, or points per euro of an amount. */
  earnBy: EarnBy;
  pointsPerEuro: number;
  amountRounding: AmountRounding;
  /** The key tills sign receipt codes with (null: none), and how long a receipt counts. */
  receiptKey: CryptoKey | null;
  receiptWindowMinutes: number;
  /** VIP levels (their multipliers). */
  tiers: { name: string; threshold: number; multiplier: number }[];
  /** The expected token of the last steps: every scan of a 30 s window checks against the same one. */
  tokens: Map<number, string>;
  /** The poster's signature, computed once. */
  poster?: string;
};

export async function loadPeriods(db: Db, shopId: string): Promise<DoublePointsPeriod[]> {
  const rows = await db
    .select()
    .from(doublePointsPeriods)
    .where(eq(doublePointsPeriods.shopId, shopId))
    .orderBy(asc(doublePointsPeriods.startDate), asc(doublePointsPeriods.createdAt));
  return rows.map((r) => ({ ...r, weekdays: r.weekdays ?? [] }));
}

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

/**
 * How a shop earns and signs receipts (issue 29): what the scan profile reads, and what a counter tablet checks
 * before it signs an amount code (till/tablet-screen.service.ts).
 */
export const shopEarningColumns = {
  cardMode: shops.cardMode,
  earnBy: shops.earnBy,
  pointsPerEuro: shops.pointsPerEuro,
  amountRounding: shops.amountRounding,
  receiptSecret: shops.receiptSecret,
  receiptWindowMinutes: shops.receiptWindowMinutes,
};

async function loadProfile(db: Db, scanUid: string): Promise<ScanProfile | null> {
  const [shop] = await db
    .select({
      id: shops.id,
      configVersion: shops.configVersion,
      codeSecret: shops.codeSecret,
      timezone: shops.timezone,
      weeklyHours: shops.weeklyHours,
      closures: shops.closures,
      ...shopEarningColumns,
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
    // A stamp card earns a stamp a visit whatever its earning setting says (fidele_scan reads the mode too).
    earnBy: shop.cardMode === "points" ? shop.earnBy : "visit",
    pointsPerEuro: shop.pointsPerEuro,
    amountRounding: shop.amountRounding,
    receiptKey: shop.receiptSecret ? await importReceiptKey(shop.receiptSecret) : null,
    receiptWindowMinutes: shop.receiptWindowMinutes,
    periods: await loadPeriods(db, shop.id),
    tiers: await db
      .select({ name: vipTiers.name, threshold: vipTiers.threshold, multiplier: vipTiers.multiplier })
      .from(vipTiers)
      .where(eq(vipTiers.shopId, shop.id)),
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

async function getScanProfile(db: Db, scanUid: string, fresh = false): Promise<ScanProfile | null> {
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

/**
 * A shop's team earns no visits at their own shop (they show the counter code and credit visits themselves):
 * the scan function is not even called for a member of the shop, in the same round trip.
 */
const SCAN_SQL = `select case
  when exists (select 1 from member m join shops s on s.id = m.organization_id where s.scan_uid = $3 and m.user_id = $2)
    then '{"outcome": "staff_self"}'::jsonb
  else fidele_scan($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) end as r,
  exists (select 1 from webhook_endpoints w join shops s on s.id = w.shop_id where s.scan_uid = $3) as hooks,
  exists (select 1 from referrals f join shops s on s.id = f.shop_id
          where s.scan_uid = $3 and f.friend_id = $2 and f.status = 'waiting') as waiting`;

/**
 * What a visit may have to do after it (answered in the scan's own round trip, so a shop with neither pays nothing
 * more): the shop has webhook addresses; the person has a parrainage waiting at this shop. Every caller of
 * performScan hands them on (emitVisitEvents, queueReferralRelease), so none asks again.
 */
type ScanFollowUps = { webhooks: boolean; waitingReferral: boolean };

/** The raw answer of fidele_scan (stored as the scan's `response`). */
type ScanRecord = {
  scanId: string;
  outcome: ScanOutcome | "config_changed" | "staff_self";
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
  /** Absent from answers stored before issue 29. */
  amountCents?: number | null;
  createdAt: string;
  replayed?: boolean;
};

type ScanParams = [
  actorId: string,
  userId: string,
  scanUid: string,
  key: string,
  method: ScanMethod,
  code: TokenCheck | "offline" | "receipt_expired",
  configVersion: number | null,
  /** JSON of visitMultipliers (src/domain/loyalty/rewards.ts). */
  multipliers: string,
  outsideHours: boolean,
  deviceId: string | null,
  sharedDeviceAccounts: number,
  sharedDeviceDays: number,
  visitAt: string | null,
  amountCents: number | null,
  /** pointsForAmount of the amount (null: the card earns by visit). */
  amountPoints: number | null,
  receiptId: string | null,
];

/** One round trip: a named prepared statement on PostgreSQL (planned once per connection), a query on PGlite. */
type ScanRow = { r: ScanRecord; hooks: boolean; waiting: boolean };

async function callScan(database: Database, params: ScanParams): Promise<ScanRow> {
  if (database.pool) {
    const res = await database.pool.query<ScanRow>({ name: "fidele_scan", text: SCAN_SQL, values: params });
    return res.rows[0]!;
  }
  const res = await database.pglite!.query<ScanRow>(SCAN_SQL, params);
  return res.rows[0]!;
}

type ScanInput = {
  scanUid: string;
  token: string | null;
  poster: string | null;
  /** A scan claim for `token` (issueScanClaim), sent after a detour through sign-in or sign-up. */
  claim?: string | null;
  deviceId: string | null;
  idempotencyKey: string;
  /** When the phone scanned the code while it had no network (the scan was queued and sent later). */
  offlineAt?: string | null;
  /** The amount spent, in cents (typed at the counter or sent by a till). */
  amountCents?: number | null;
  /** A receipt code (method "receipt"): its amount is the amount. */
  receipt?: string | null;
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

/** A stale token with a claim: valid when the claim is authentic, in time, for this token, and not spent by another. */
async function codeByClaim(
  db: Db,
  profile: ScanProfile,
  userId: string,
  input: ScanInput,
  nowMs: number,
): Promise<TokenCheck> {
  const step = input.token ? tokenStepOf(input.token) : null;
  if (step === null || !input.claim) return "stale";
  const check = await verifyScanClaim(profile.key, profile.scanUid, input.claim, step, nowMs);
  if (!check.ok) return "stale";
  return (await spendClaim(db, check.nonce, profile.shopId, userId, input.idempotencyKey)) ? "valid" : "stale";
}

/**
 * The moment of a visit scanned offline: what the phone says, kept inside the window in which the code was valid
 * (its step and the next), since the code proves the shopper was at the counter then and the phone's clock proves
 * nothing. Null for a malformed token.
 */
function offlineVisit(token: string, offlineAt: string): string | null {
  const step = tokenStepOf(token);
  if (step === null) return null;
  const from = step * CODE_STEP_SECONDS * 1000;
  const until = from + CODE_STEPS_ACCEPTED * CODE_STEP_SECONDS * 1000 - 1000;
  const said = Date.parse(offlineAt);
  return new Date(Math.min(until, Math.max(from, Number.isNaN(said) ? from : said))).toISOString();
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
  let followUps: ScanFollowUps = { webhooks: true, waitingReferral: true };
  for (let attempt = 0; attempt < 3 && !record; attempt++) {
    const profile = await getScanProfile(db, input.scanUid, attempt > 0);
    let code: TokenCheck | "offline" | "receipt_expired" = "invalid";
    let visitAt: string | null = null;
    let multipliers: MultiplierCandidate[] = [];
    let outsideHours = false;
    let amountCents = input.amountCents ?? null;
    let receiptId: string | null = null;
    if (profile) {
      if (resolved === "staff" || resolved === "till") code = "valid";
      else if (resolved === "receipt") {
        const parsed = input.receipt ? parseReceiptCode(input.receipt) : null;
        const check =
          parsed && profile.receiptKey && parsed.scanUid === profile.scanUid
            ? await verifyReceiptCode(profile.receiptKey, parsed, profile.receiptWindowMinutes, now.getTime())
            : "invalid";
        code = check === "expired" ? "receipt_expired" : check;
        if (parsed && check === "valid") {
          amountCents = parsed.amountCents;
          receiptId = parsed.receiptId;
        }
      } else if (resolved === "rotating" && input.token) {
        code = await checkToken(profile, input.token, now.getTime());
        // Only the shopper's own scan can lean on a claim (a staff scan needs none).
        if (code === "stale" && input.claim && who.actorId === who.userId) {
          code = await codeByClaim(db, profile, who.userId, input, now.getTime());
        }
        // A code kept by a phone without network: authentic, sent late; the shop's grace decides (fidele_scan).
        if (code === "stale" && input.offlineAt && who.actorId === who.userId) {
          visitAt = offlineVisit(input.token, input.offlineAt);
          if (visitAt) code = "offline";
        }
      } else if (resolved === "poster" && input.poster) {
        profile.poster ??= await posterToken(profile.key, profile.scanUid);
        code = safeEqual(profile.poster, input.poster) ? "valid" : "invalid";
      }
      const m = multiplierAt(profile.periods, now, profile.timezone);
      multipliers = [
        ...visitMultipliers(m.period ? { multiplier: m.multiplier, label: m.period.label } : null, profile.tiers),
        PERSONAL_OFFER_CANDIDATE,
      ];
      outsideHours = isFarOutsideHours(profile.weeklyHours, profile.closures, now, profile.timezone);
    }
    const amountPoints =
      profile?.earnBy === "amount" && amountCents !== null
        ? pointsForAmount(amountCents, profile.pointsPerEuro, profile.amountRounding)
        : null;
    if (amountPoints === 0 && code === "valid") {
      throw new AppError("VALIDATION", {
        message: "amount worth no point",
        userMessage: "Ce montant ne suffit pas pour gagner un point.",
        fields: { amountCents: "Ce montant ne suffit pas pour gagner un point." },
      });
    }
    const row = await callScan(database, [
      who.actorId,
      who.userId,
      input.scanUid,
      input.idempotencyKey,
      resolved,
      code,
      profile?.configVersion ?? null,
      JSON.stringify(multipliers),
      outsideHours,
      resolved === "staff" ? null : input.deviceId,
      SHARED_DEVICE_ACCOUNTS,
      SHARED_DEVICE_WINDOW_DAYS,
      visitAt,
      amountCents,
      amountPoints,
      receiptId,
    ]);
    const result = row.r;
    followUps = { webhooks: Boolean(row.hooks), waitingReferral: Boolean(row.waiting) };
    if (result.outcome === "staff_self") {
      throw new AppError("FORBIDDEN", {
        message: "scan by staff of the shop",
        userMessage:
          who.actorId === who.userId
            ? "Vous faites partie de l'équipe de cette boutique : vos propres passages n'y sont pas crédités."
            : "Ce client fait partie de l'équipe de la boutique : ses passages n'y sont pas crédités.",
      });
    }
    if (result.outcome !== "config_changed") record = result;
  }
  if (!record) throw new Error("scan profile kept changing");
  return { answer: toScanAnswer(record), replayed: Boolean(record.replayed), followUps };
}

/** The API's answer to a scan: the same for a retry (built from the stored first answer). */
function toScanAnswer(r: ScanRecord) {
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
    amountCents: r.amountCents ?? null,
    scannedAt: createdAt.toISOString(),
  };
}
