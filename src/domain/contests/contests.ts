import { formatMoment } from "../format.ts";
import { addDays, localParts, zonedToUtc } from "../loyalty/time.ts";

/** Contests: kinds, phases, who may take part, how often. Pure rules shared by the server and the web app. */

export const CONTEST_KINDS = ["draw", "wheel"] as const;
export type ContestKind = (typeof CONTEST_KINDS)[number];

/** Stored statuses. "open" and "closed" are not stored: a scheduled contest is open between its dates. */
export const CONTEST_STORED_STATUSES = ["draft", "scheduled", "drawn"] as const;
type ContestStoredStatus = (typeof CONTEST_STORED_STATUSES)[number];
type ContestPhase = "draft" | "scheduled" | "open" | "closed" | "drawn";

export const CONTEST_PHASE_LABELS_FR: Record<ContestPhase, string> = {
  draft: "Brouillon",
  scheduled: "Programmé",
  open: "En cours",
  closed: "Terminé",
  drawn: "Tiré au sort",
};

export function contestPhase(
  c: { status: ContestStoredStatus; startsAt: Date; endsAt: Date },
  now: Date,
): ContestPhase {
  if (c.status !== "scheduled") return c.status;
  if (now < c.startsAt) return "scheduled";
  return now < c.endsAt ? "open" : "closed";
}

/**
 * Who may take part. Customers (a visit recorded at the counter) by default; never a points level or a purchase
 * (issue 22 row 7: the VIP restriction was removed, ADR 0033). A visit is not a purchase: scanning is free.
 */
export const ELIGIBILITIES = ["customers", "confirmed"] as const;
export type Eligibility = (typeof ELIGIBILITIES)[number];
export const DEFAULT_ELIGIBILITY: Eligibility = "customers";
export const ELIGIBILITY_LABELS_FR: Record<Eligibility, string> = {
  customers: "Les clients de la boutique (au moins un passage enregistré en boutique avec la carte de fidélité)",
  confirmed: "Toute personne inscrite sur Fidèle avec une adresse e-mail confirmée",
};

export const SPIN_PERIODS = ["day", "week", "contest"] as const;
export type SpinPeriod = (typeof SPIN_PERIODS)[number];

export const HANDOVER_MODES = ["counter", "points", "voucher"] as const;
export type HandoverMode = (typeof HANDOVER_MODES)[number];
export const HANDOVER_LABELS_FR: Record<HandoverMode, string> = {
  counter: "Remis en boutique sur présentation d'un code",
  points: "Points crédités sur la carte de fidélité",
  voucher: "Bon d'achat à présenter en boutique",
};

export const WINNING_STATUSES = ["to_hand_over", "handed_over", "expired", "redrawn"] as const;
export type WinningStatus = (typeof WINNING_STATUSES)[number];
export const WINNING_STATUS_LABELS_FR: Record<WinningStatus, string> = {
  to_hand_over: "À remettre",
  handed_over: "Remis",
  expired: "Expiré",
  redrawn: "Réattribué",
};

type Participant = {
  emailVerified: boolean;
  /** Member (owner or staff) of the organising shop. */
  isShopMember: boolean;
  /** At least one visit recorded at the shop's counter. */
  hasVisited: boolean;
};

/** Why this person may not take part (French), or null when they may. Never a purchase, never points. */
export function ineligibilityReason(p: Participant, eligibility: Eligibility): string | null {
  if (p.isShopMember) return "Le personnel et les responsables de la boutique ne peuvent pas participer à ses jeux.";
  if (!p.emailVerified) return "Confirmez d'abord votre adresse e-mail pour participer.";
  if (eligibility === "customers" && !p.hasVisited)
    return "Ce jeu est réservé aux clients de la boutique : faites d'abord enregistrer un passage en boutique.";
  return null;
}

/**
 * The period an entry counts in: the whole contest, or the day / ISO week (by its Monday) in the shop's time zone.
 * A unique index on (contest, person, period, n) makes "once per period" hold under any race.
 */
export function periodKey(period: SpinPeriod, now: Date, timeZone: string): string {
  if (period === "contest") return "contest";
  const { date, weekday } = localParts(now, timeZone);
  return period === "day" ? date : `semaine-${addDays(date, 1 - weekday)}`;
}

/** When a spin is possible again: the next local midnight, the next Monday; never again for a whole-contest period. */
export function nextPeriodStart(period: SpinPeriod, now: Date, timeZone: string): Date | null {
  if (period === "contest") return null;
  const { date, weekday } = localParts(now, timeZone);
  return zonedToUtc(addDays(date, period === "day" ? 1 : 8 - weekday), 0, timeZone);
}

/**
 * What the wheel's page says before any tap to someone who has played this period (issue 25 row 3): « Déjà joué —
 * prochain tour demain à 0 h 00 », or that there is none before the game closes.
 */
export function alreadyPlayedFr(next: Date | null, endsAt: Date, now: Date, timeZone: string): string {
  if (!next || next >= endsAt) return "Déjà joué — plus de tour avant la fin de ce jeu.";
  return `Déjà joué — prochain tour ${formatMoment(next, now, timeZone)}.`;
}

/** Claim codes: 6 characters without look-alikes (no 0/O, 1/I/L), like redemption codes. */
export const CLAIM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789";
export const LOT_QR_PREFIX = "FIDELE-L:";

export function parseClaimCode(raw: string): string | null {
  const code = raw.trim().toUpperCase().replace(LOT_QR_PREFIX, "").replace(/[\s-]/g, "");
  return /^[A-HJKMNP-Z2-9]{6}$/.test(code) ? code : null;
}
