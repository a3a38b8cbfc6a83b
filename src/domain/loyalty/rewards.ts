import type { CardMode } from "./scan-rules.ts";
import { formatLocalDate, formatNumber } from "../format.ts";

/**
 * Rewards, their redemption, VIP levels and the birthday gift: the rules, free of
 * any database. The server applies the same rules under row locks (`fidele_redeem`,
 * src/server/db/functions/redeem.sql; tests/api/rules-parity.test.ts holds both to one table of
 * cases); the web app uses them to say what is reachable and why not.
 */

export const REWARD_KINDS = ["repeatable", "ladder"] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

export const REDEMPTION_STATUSES = ["pending", "validated", "refused", "cancelled", "expired"] as const;
export type RedemptionStatus = (typeof REDEMPTION_STATUSES)[number];

/**
 * What a redemption is for: a reward bought with points, a VIP level's gift, the birthday gift, an automation's
 * reward offer (issue 27; once per occasion: its source_ref is the occasion's id), a parrainage's reward (ADR 0048).
 */
export const REDEMPTION_SOURCES = ["reward", "vip", "birthday", "offer", "referral"] as const;
export type RedemptionSource = (typeof REDEMPTION_SOURCES)[number];

/** Why "Utiliser" is refused (also the outcomes of `fidele_redeem`). */
const REDEEM_REFUSALS = [
  "unknown_reward",
  "inactive",
  "suspended",
  "not_started",
  "ended",
  "no_card",
  "insufficient",
  "out_of_stock",
  "limit_reached",
  "already_claimed",
  "not_eligible",
] as const;
export type RedeemRefusal = (typeof REDEEM_REFUSALS)[number];

export const REDEMPTION_TTL_MAX_MINUTES = 24 * 60;
export const VIP_TIERS_MAX = 5;
/** Rewards a shop can hold at once (archived ones aside): a catalogue, not a database. Also the page size of its lists. */
export const REWARDS_PER_SHOP_MAX = 100;
export const VIP_MULTIPLIER_MAX = 3;

/** Six characters, no look-alikes (0/O, 1/I/L): read aloud or typed at the counter. */
export const REDEMPTION_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const REDEMPTION_CODE_LENGTH = 6;

/** What the QR code of a pending redemption holds: the code, prefixed so a stray QR is not mistaken for it. */
export const REDEMPTION_QR_PREFIX = "FIDELE-R:";

/** The code typed by staff or read from the QR code; null when it cannot be one. */
export function parseRedemptionCode(input: string): string | null {
  let raw = input.trim();
  if (raw.toUpperCase().startsWith(REDEMPTION_QR_PREFIX)) raw = raw.slice(REDEMPTION_QR_PREFIX.length);
  const code = raw.toUpperCase().replace(/[\s-]/g, "");
  if (code.length !== REDEMPTION_CODE_LENGTH) return null;
  for (const ch of code) if (!REDEMPTION_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

export function unitLabelFr(mode: CardMode, n: number): string {
  const abs = Math.abs(n);
  const word = mode === "stamps" ? (abs > 1 ? "tampons" : "tampon") : abs > 1 ? "points" : "point";
  return `${formatNumber(n)} ${word}`;
}

export type RewardRules = {
  cost: number;
  isActive: boolean;
  stock: number | null;
  perCustomerLimit: number | null;
  kind: RewardKind;
  /** Local dates (shop time zone), inclusive. */
  validFrom: string | null;
  validUntil: string | null;
};

type RewardStanding = {
  balance: number;
  hasCard: boolean;
  /** This customer's redemptions of this reward that count (pending or validated). */
  used: number;
  shopActive: boolean;
  /** Today in the shop's time zone, YYYY-MM-DD. */
  today: string;
};

/** The per-customer limit a reward really has: a ladder reward is once per customer. */
export function effectiveLimit(r: Pick<RewardRules, "kind" | "perCustomerLimit">): number | null {
  if (r.kind === "ladder") return 1;
  return r.perCustomerLimit;
}

/** Why a reward cannot be used now, or null when it can. Same order as `fidele_redeem`. */
export function redeemRefusal(r: RewardRules, s: RewardStanding): RedeemRefusal | null {
  if (!s.shopActive) return "suspended";
  if (!r.isActive) return "inactive";
  if (r.validFrom && s.today < r.validFrom) return "not_started";
  if (r.validUntil && s.today > r.validUntil) return "ended";
  if (!s.hasCard) return "no_card";
  const limit = effectiveLimit(r);
  if (limit !== null && s.used >= limit) return r.kind === "ladder" ? "already_claimed" : "limit_reached";
  if (r.stock !== null && r.stock <= 0) return "out_of_stock";
  if (s.balance < r.cost) return "insufficient";
  return null;
}

function dateFr(isoDate: string): string {
  return formatLocalDate(isoDate);
}

/** The French sentence for a refusal, as the shopper reads it. */
export function redeemRefusalFr(
  refusal: RedeemRefusal,
  ctx: { mode: CardMode; missing?: number; validFrom?: string | null; validUntil?: string | null } = { mode: "points" },
): string {
  switch (refusal) {
    case "unknown_reward":
      return "Cette récompense n'existe pas ou plus.";
    case "inactive":
      return "Cette récompense n'est plus proposée pour le moment.";
    case "suspended":
      return "Cette boutique est suspendue : ses récompenses ne peuvent pas être utilisées.";
    case "not_started":
      return ctx.validFrom
        ? `Cette récompense sera disponible à partir du ${dateFr(ctx.validFrom)}.`
        : "Cette récompense n'est pas encore disponible.";
    case "ended":
      return ctx.validUntil
        ? `Cette récompense n'est plus disponible depuis le ${dateFr(ctx.validUntil)}.`
        : "Cette récompense n'est plus disponible.";
    case "no_card":
      return "Vous n'avez pas encore de carte dans cette boutique : scannez son code lors de votre prochain passage.";
    case "insufficient":
      return ctx.missing && ctx.missing > 0
        ? `Il vous manque ${unitLabelFr(ctx.mode, ctx.missing)} pour cette récompense.`
        : "Votre solde ne suffit pas pour cette récompense.";
    case "out_of_stock":
      return "Cette récompense est épuisée.";
    case "limit_reached":
      return "Vous avez déjà utilisé cette récompense autant de fois que permis.";
    case "already_claimed":
      return "Vous avez déjà obtenu cette récompense.";
    case "not_eligible":
      return "Ce cadeau n'est pas disponible pour vous en ce moment.";
  }
}

export const REDEMPTION_STATUS_LABELS_FR: Record<RedemptionStatus, string> = {
  pending: "En attente de validation",
  validated: "Validée",
  refused: "Refusée",
  cancelled: "Annulée",
  expired: "Expirée",
};

/** The words of a refund's ledger entry ("Refusée : motif", "Annulée", "Expirée"); the database appends " — title". */
export function refundLabelFr(status: "refused" | "cancelled" | "expired", reason?: string | null): string {
  const word = REDEMPTION_STATUS_LABELS_FR[status];
  return status === "refused" ? `${word} : ${reason ?? ""}` : word;
}

/* VIP levels ---------------------------------------------------------------- */

type VipTier = {
  name: string;
  /** Lifetime points (or stamps) needed. */
  threshold: number;
  /** Points of each visit are multiplied by this (1 = no bonus). */
  multiplier: number;
  /** A gift given once when the level is reached (a reward of the shop), or null. */
  rewardId: string | null;
};

type TierStanding<T extends VipTier> = {
  current: T | null;
  next: T | null;
  /** What the next level still needs (0 when there is none). */
  missing: number;
  /** Progress toward the next level, 0–100. */
  percent: number;
};

/**
 * The level of a customer. Levels follow the *lifetime* total, which spending,
 * expiry and refunds never lower: using a reward never costs a level.
 */
export function tierFor<T extends VipTier>(tiers: readonly T[], lifetime: number): TierStanding<T> {
  const sorted = [...tiers].sort((a, b) => a.threshold - b.threshold);
  let current: T | null = null;
  let next: T | null = null;
  for (const t of sorted) {
    if (lifetime >= t.threshold) current = t;
    else {
      next = t;
      break;
    }
  }
  const from = current?.threshold ?? 0;
  const missing = next ? next.threshold - lifetime : 0;
  const percent = next
    ? Math.max(0, Math.min(100, Math.round(((lifetime - from) / Math.max(1, next.threshold - from)) * 100)))
    : 100;
  return { current, next, missing, percent };
}

/** A multiplier a visit may get, with the ledger's words for it, for a lifetime total in [min, max). */
export type MultiplierCandidate = {
  multiplier: number;
  label: string;
  minLifetime: number;
  maxLifetime: number | null;
  /** Only while the card has an offer of double points running (fidele_scan reads it under the card's lock). */
  personal?: true;
};

/**
 * An automation's offer of double points (issue 27, ADR 0046): a candidate of every visit, taken by fidele_scan only
 * while the card holds such an offer (automation_occasions.offer_until); the best candidate wins, never stacked.
 */
export const PERSONAL_OFFER_CANDIDATE: MultiplierCandidate = {
  multiplier: 2,
  label: "Votre offre personnelle",
  minLifetime: 0,
  maxLifetime: null,
  personal: true,
};

/**
 * The multipliers a visit may get, decided here: the double-points period's (any lifetime), then each VIP
 * level's over the lifetime range where it is the customer's level. Under the card's lock the database
 * (fidele_scan) takes the best one whose range holds the card's lifetime, the first on a tie: the period's
 * label wins a tie, as `pickVisitMultiplier` does.
 */
export function visitMultipliers(
  period: { multiplier: number; label: string } | null,
  tiers: readonly Pick<VipTier, "name" | "threshold" | "multiplier">[],
): MultiplierCandidate[] {
  const candidates: MultiplierCandidate[] = [];
  if (period && period.multiplier > 1) {
    // The period's own name: the multiplier is said beside it, in the card's unit (« Tampons ×2 · Mercredi gourmand »).
    candidates.push({ multiplier: period.multiplier, label: period.label, minLifetime: 0, maxLifetime: null });
  }
  const sorted = [...tiers].sort((a, b) => a.threshold - b.threshold);
  sorted.forEach((t, i) => {
    if (t.multiplier <= 1) return;
    const next = sorted[i + 1];
    candidates.push({
      multiplier: t.multiplier,
      label: `Niveau ${t.name}`,
      minLifetime: t.threshold,
      maxLifetime: next?.threshold ?? null,
    });
  });
  return candidates;
}

/** The candidate a visit gets at this lifetime total: what fidele_scan does (tests/api/rules-parity.test.ts). */
export function pickVisitMultiplier(
  candidates: readonly MultiplierCandidate[],
  lifetime: number,
): { multiplier: number; label: string | null } {
  let best: MultiplierCandidate | null = null;
  for (const c of candidates) {
    const holds = c.minLifetime <= lifetime && (c.maxLifetime === null || lifetime < c.maxLifetime);
    if (holds && (!best || c.multiplier > best.multiplier)) best = c;
  }
  return best && best.multiplier > 1
    ? { multiplier: best.multiplier, label: best.label }
    : { multiplier: 1, label: null };
}

/* Birthday ------------------------------------------------------------------ */

function isoWeekStart(y: number, m: number, d: number): Date {
  const day = new Date(Date.UTC(y, m - 1, d));
  const weekday = (day.getUTCDay() + 6) % 7; // Monday = 0
  return new Date(day.getTime() - weekday * 86_400_000);
}

/**
 * The birthday week: Monday to Sunday of the week that holds this year's birthday
 * (29 February is the 28th in other years). Returns the year it counts for (the
 * gift is once a year), or null when `today` is outside that week.
 */
export function birthdayWeekYear(birthday: string | null, today: string): number | null {
  if (!birthday) return null;
  const [, bm, bd] = birthday.split("-").map(Number);
  const [ty, tm, td] = today.split("-").map(Number);
  if (!bm || !bd || !ty || !tm || !td) return null;
  const todayMs = Date.UTC(ty, tm - 1, td);
  // The week may straddle New Year: look at last year's, this year's and next year's birthday.
  for (const year of [ty - 1, ty, ty + 1]) {
    const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
    const day = bm === 2 && bd === 29 && !leap ? 28 : bd;
    const start = isoWeekStart(year, bm, day).getTime();
    if (todayMs >= start && todayMs < start + 7 * 86_400_000) return year;
  }
  return null;
}
