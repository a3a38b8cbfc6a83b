import { formatEuros, formatNumber, pluralWord } from "../format.ts";

/**
 * Points by the amount spent (issue 29, ADR 0050): « 1 point par euro », rounding stated on the card. The amount is
 * in cents (a till's own unit; no float ever holds money). Multipliers (double points, VIP levels) apply on top,
 * exactly as to a visit's points, in fidele_scan.
 */
export type EarnBy = "visit" | "amount";
export type AmountRounding = "down" | "nearest" | "up";
export const EARN_BY = ["visit", "amount"] as const;
export const AMOUNT_ROUNDINGS = ["down", "nearest", "up"] as const;

/** The largest amount one credit may carry (10 000 €): a typo at the counter is caught, not credited. */
export const MAX_AMOUNT_CENTS = 1_000_000;

export function pointsForAmount(amountCents: number, pointsPerEuro: number, rounding: AmountRounding): number {
  // Integer arithmetic: cents × points, then one division by 100 rounded as the card says.
  const hundredths = amountCents * pointsPerEuro;
  if (rounding === "down") return Math.floor(hundredths / 100);
  if (rounding === "up") return Math.ceil(hundredths / 100);
  // Nearest, half up (12,50 € → 13 points), as a shopper expects.
  return Math.floor((hundredths + 50) / 100);
}

const ROUNDING_FR: Record<AmountRounding, string> = {
  down: "arrondi au point inférieur",
  nearest: "arrondi au point le plus proche",
  up: "arrondi au point supérieur",
};

/** « 1 point par euro dépensé, arrondi au point inférieur » (the card and its rules say it). */
export function amountRuleFr(pointsPerEuro: number, rounding: AmountRounding): string {
  return `${formatNumber(pointsPerEuro)} ${pluralWord(pointsPerEuro, "point", "points")} par euro dépensé, ${ROUNDING_FR[rounding]}`;
}

/** « 12,50 € » from cents. */
export const formatCents = (cents: number) => formatEuros(cents / 100);

/** « 12,50 », « 12.5 », « 12 € » → 1250; null when it is no amount of euros with at most two decimals. */
export function parseEurosToCents(text: string): number | null {
  const m = /^\s*(\d{1,6})(?:[.,](\d{1,2}))?\s*(?:€|eur|euros?)?\s*$/i.exec(text);
  if (!m) return null;
  return Number(m[1]) * 100 + Number((m[2] ?? "").padEnd(2, "0"));
}
