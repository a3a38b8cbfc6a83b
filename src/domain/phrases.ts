import {
  type CardMode,
  capitalize,
  formatAmount,
  formatClock,
  formatMoment,
  isPlural,
  plural,
  pluralWord,
  unitWord,
} from "./format.ts";

/**
 * French sentences with a number in them, agreed through src/domain/format.ts (Intl.PluralRules), so that none
 * reads « Vos 1 tampon sont réservés » or « 1 tampon réservés » again (issue 12). Unit-tested with 0, 1 and 2.
 */

/**
 * "Vos 3 tampons sont réservés pendant 15 minutes et vous sont rendus si la récompense n'est pas remise.",
 * "Votre 1 tampon est réservé pendant 1 minute et vous est rendu si …".
 */
export function reservedForFr(mode: CardMode, n: number, minutes: number): string {
  const [subject, verb, back] = isPlural(n)
    ? ["Vos", "sont réservés", "vous sont rendus"]
    : ["Votre", "est réservé", "vous est rendu"];
  return `${subject} ${formatAmount(mode, n)} ${verb} pendant ${minutesFr(minutes)} et ${back} si la récompense n'est pas remise.`;
}

/** "1 tampon réservé", "3 tampons réservés". */
export const reservedFr = (mode: CardMode, n: number) =>
  `${formatAmount(mode, n)} ${pluralWord(n, "réservé", "réservés")}`;

/** "1 carte de fidélité", "2 cartes de fidélité". */
export const loyaltyCardsFr = (n: number) => plural(n, "carte de fidélité", "cartes de fidélité");

/** "1 récompense disponible", "2 récompenses disponibles". */
export const rewardsAvailableFr = (n: number) => plural(n, "récompense disponible", "récompenses disponibles");

/** "Points ×2", "Tampons ×3": a visit's multiplier in the card's own unit (issue 25 row 13). */
export const multipliedFr = (mode: CardMode, multiplier: number) => `${capitalize(unitWord(mode, 2))} ×${multiplier}`;

/**
 * The counter's day: "Aucun passage aujourd'hui.", "3 passages crédités aujourd'hui.", "3 passages crédités
 * aujourd'hui, 1 refusé.", "Aucun passage crédité aujourd'hui, 1 refusé." — never « 0 passage crédité sur 0 »
 * (issue 25 row 13).
 */
export function creditedTodayFr(credited: number, total: number): string {
  if (total === 0) return "Aucun passage aujourd'hui.";
  const refused = total - credited;
  const head = `${credited === 0 ? "Aucun passage crédité" : plural(credited, "passage crédité", "passages crédités")} aujourd'hui`;
  return refused > 0 ? `${head}, ${plural(refused, "refusé", "refusés")}.` : `${head}.`;
}

/** "1 passage", "3 passages". */
export const visitsFr = (n: number) => plural(n, "passage", "passages");

/**
 * What is left before a full card (a shop without a catalogue of rewards): "Plus qu'un tampon avant votre
 * récompense.", "Plus que 7 tampons avant votre récompense."; nothing left: the reward waits (issue 25 row 12).
 */
export function stampsLeftFr(n: number): string {
  if (n <= 0) return "Carte complète : votre récompense vous attend !";
  if (n === 1) return "Plus qu'un tampon avant votre récompense.";
  return `Plus que ${formatAmount("stamps", n)} avant votre récompense.`;
}

/** "encore un tampon", "encore 2 tampons", "encore un point", "encore 30 points". */
export const stillToGoFr = (mode: CardMode, n: number) =>
  n === 1 ? `encore un ${unitWord(mode, 1)}` : `encore ${formatAmount(mode, n)}`;

/** A card's rewards at a glance: how many it can take now, and the cheapest one it still lacks points for. */
type RewardsGlance = { reachable: number; next: { title: string; missing: number } | null };

/**
 * "2 récompenses disponibles · Prochaine récompense : Croissant offert (encore 2 tampons)": what a card with a
 * catalogue of rewards says, naming the next reward not yet reachable rather than « Plus que 2 tampons avant votre
 * récompense » beside two ready ones (issue 25 row 12). null when the shop offers nothing.
 */
export function rewardsGlanceFr(mode: CardMode, glance: RewardsGlance): string | null {
  const next = glance.next
    ? `Prochaine récompense : ${glance.next.title} (${stillToGoFr(mode, glance.next.missing)})`
    : null;
  const ready = glance.reachable > 0 ? rewardsAvailableFr(glance.reachable) : null;
  if (ready && next) return `${ready} · ${next}`;
  return ready ?? next;
}

/** "7 tampons sur 10", "1 tampon sur 10". */
export const stampsOfGoalFr = (stamps: number, goal: number) => `${formatAmount("stamps", stamps)} sur ${goal}`;

/** "15 minutes", "1 minute". */
export const minutesFr = (n: number) => plural(n, "minute", "minutes");

/**
 * When a balance shown offline was last seen: "vu à 14 h 05" today, "vu hier à 14 h 05", "vu le 12 mars";
 * "vus …" for several (« soldes vus à 14 h 05 »).
 */
export function seenAtFr(value: string | Date | number, now = new Date(), many = false): string {
  const date = new Date(value);
  const moment = formatMoment(date, now);
  const seen = many ? "vus" : "vu";
  return moment.startsWith("aujourd'hui") ? `${seen} à ${formatClock(date)}` : `${seen} ${moment}`;
}
