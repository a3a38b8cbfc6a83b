import { addDays, localParts, zonedToUtc } from "./time.ts";
import { formatAmount, formatMoment, pluralWord } from "../format.ts";
import { multipliedFr } from "../phrases.ts";

/**
 * A shop's card rules. Changing them never rewrites what was earned: the ledger
 * keeps each entry's delta as it was credited.
 */
export type CardMode = "stamps" | "points";
export type CardRules = {
  mode: CardMode;
  /** Stamps that fill a card (stamps mode). */
  stampsGoal: number;
  /** Points credited per visit (points mode). */
  pointsPerVisit: number;
  /** Minimum time between two credited visits of one customer. */
  cooldownMinutes: number;
  /** Credited visits per customer per local day. */
  dailyCap: number;
  allowStaticPoster: boolean;
};

export const DEFAULT_CARD_RULES: CardRules = {
  mode: "stamps",
  stampsGoal: 10,
  pointsPerVisit: 10,
  cooldownMinutes: 240,
  dailyCap: 2,
  allowStaticPoster: false,
};

/** Accounts seen on one device within the window before a scan is flagged. */
export const SHARED_DEVICE_ACCOUNTS = 3;
export const SHARED_DEVICE_WINDOW_DAYS = 7;

export function pointsPerVisit(rules: Pick<CardRules, "mode" | "pointsPerVisit">): number {
  return rules.mode === "stamps" ? 1 : rules.pointsPerVisit;
}

type CardVisitState = { lastScanAt: Date | null; dayKey: string | null; dayCount: number };

type ScanCheck = { ok: true } | { ok: false; reason: "cooldown" | "daily_cap"; nextAt: Date };

/**
 * Is a visit creditable now? The database applies the same rule under a row lock
 * (`fidele_scan`, src/server/db/functions/scan.sql; tests/api/rules-parity.test.ts runs the same
 * cases through both); this is its specification and what the shop
 * page uses to tell a shopper when the next visit counts.
 */
export function checkVisit(
  state: CardVisitState,
  rules: Pick<CardRules, "cooldownMinutes" | "dailyCap">,
  now: Date,
  tz: string,
): ScanCheck {
  const today = localParts(now, tz).date;
  const countToday = state.dayKey === today ? state.dayCount : 0;
  const cooldownEnd = state.lastScanAt ? new Date(state.lastScanAt.getTime() + rules.cooldownMinutes * 60_000) : null;
  if (countToday >= rules.dailyCap) {
    const tomorrow = zonedToUtc(addDays(today, 1), 0, tz);
    const nextAt = cooldownEnd && cooldownEnd > tomorrow ? cooldownEnd : tomorrow;
    return { ok: false, reason: "daily_cap", nextAt };
  }
  if (cooldownEnd && cooldownEnd > now) return { ok: false, reason: "cooldown", nextAt: cooldownEnd };
  return { ok: true };
}

export const SCAN_OUTCOMES = [
  "accepted",
  "cooldown",
  "daily_cap",
  "stale_code",
  "invalid_code",
  "poster_disabled",
  "suspended",
  "unknown_shop",
  "offline_late",
  "amount_required",
  "receipt_expired",
  "receipt_used",
] as const;
export type ScanOutcome = (typeof SCAN_OUTCOMES)[number];

/** "till": sent by a till with an API key; "receipt": the code printed on a receipt (issue 29). */
export const SCAN_METHODS = ["rotating", "poster", "staff", "till", "receipt"] as const;
export type ScanMethod = (typeof SCAN_METHODS)[number];

const SCAN_FLAGS = ["shared_device", "outside_hours", "offline"] as const;
export type ScanFlag = (typeof SCAN_FLAGS)[number];

export const SCAN_OUTCOME_LABELS_FR: Record<ScanOutcome, string> = {
  accepted: "Crédité",
  cooldown: "Trop tôt",
  daily_cap: "Limite du jour",
  stale_code: "Code expiré",
  invalid_code: "Code invalide",
  poster_disabled: "Affiche désactivée",
  suspended: "Boutique suspendue",
  unknown_shop: "Boutique inconnue",
  offline_late: "Hors ligne, envoyé trop tard",
  amount_required: "Montant manquant",
  receipt_expired: "Ticket trop ancien",
  receipt_used: "Ticket déjà utilisé",
};

export const SCAN_FLAG_LABELS_FR: Record<ScanFlag, string> = {
  shared_device: "Plusieurs comptes sur le même appareil",
  outside_hours: "En dehors des heures d'ouverture",
  offline: "Scanné hors ligne, envoyé au retour du réseau",
};

export const SCAN_METHOD_LABELS_FR: Record<ScanMethod, string> = {
  rotating: "Code du comptoir",
  poster: "Affiche",
  staff: "Saisi par l'équipe",
  till: "Envoyé par la caisse",
  receipt: "Code du ticket",
};

type ScanMessageInput = {
  outcome: ScanOutcome;
  shopName: string | null;
  mode: CardMode;
  delta: number;
  multiplier: number;
  nextAt: Date | null;
  timezone: string;
  now: Date;
};

/** What the shopper reads after a scan, in French; a refusal says why and, when known, when to come back. */
export function scanMessageFr(s: ScanMessageInput): string {
  const shop = s.shopName ?? "cette boutique";
  // Only refusals say when to come back: an accepted scan skips the formatting.
  const when =
    s.nextAt && (s.outcome === "cooldown" || s.outcome === "daily_cap")
      ? formatMoment(s.nextAt, s.now, s.timezone)
      : null;
  switch (s.outcome) {
    case "accepted":
      return s.multiplier > 1
        ? // The card's own unit: a stamp card's double visit is « Tampons ×2 », never « Points » (issue 25 row 13).
          `${multipliedFr(s.mode, s.multiplier)} ! ${formatAmount(s.mode, s.delta)} ajoutés chez ${shop}.`
        : `${formatAmount(s.mode, s.delta)} ${pluralWord(s.delta, "ajouté", "ajoutés")} chez ${shop}. Merci de votre visite !`;
    case "cooldown":
      return `Votre passage chez ${shop} a déjà été crédité récemment. Prochain passage possible ${when ?? "plus tard"}.`;
    case "daily_cap":
      return `Vous avez atteint le nombre de passages crédités aujourd'hui chez ${shop}. Prochain passage possible ${when ?? "demain"}.`;
    case "stale_code":
      return "Ce code a expiré : il change toutes les 30 secondes. Scannez le code affiché en ce moment au comptoir.";
    case "invalid_code":
      return "Ce code n'est pas valide. Scannez le code affiché au comptoir de la boutique.";
    case "poster_disabled":
      return `${shop} n'accepte pas l'affiche imprimée : scannez le code affiché au comptoir.`;
    case "suspended":
      return `${shop} est momentanément suspendue sur Fidèle : aucun passage ne peut être crédité.`;
    case "unknown_shop":
      return "Ce code ne correspond à aucune boutique Fidèle.";
    case "amount_required":
      return `${shop} crédite des points selon le montant de vos achats : scannez le code imprimé sur votre ticket, ou montrez votre code client en caisse.`;
    case "receipt_expired":
      return `Ce ticket de ${shop} est trop ancien : son code ne peut plus être utilisé.`;
    case "receipt_used":
      return `Ce ticket de ${shop} a déjà été utilisé : un ticket ne compte qu'une fois.`;
    case "offline_late":
      return `Ce passage chez ${shop} a été scanné sans réseau et envoyé trop tard : la boutique accepte les passages hors ligne pendant un temps limité. Il n'a pas été crédité.`;
  }
}
