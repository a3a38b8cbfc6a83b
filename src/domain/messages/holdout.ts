import { formatSigned, plural, pluralWord } from "../format.ts";

/**
 * Honest results of an automation (issue 27 item 2, ADR 0046): the people of each occasion are split at random into
 * those sent the message and a holdout sent nothing; the return rate of each group is compared, the difference given
 * with a 95 % confidence interval, and nothing is claimed without enough people.
 *
 * The interval is Newcombe's hybrid score interval for a difference of two independent proportions (method 10 of
 * R. G. Newcombe, « Interval estimation for the difference between independent proportions: comparison of eleven
 * methods », Statistics in Medicine 17, 1998, 873–890), built from each group's Wilson interval: unlike the textbook
 * « ± 1.96 standard errors », it stays inside [−1, 1] and behaves with small groups and rates near 0 or 1, which is
 * what a small shop has.
 */
type Group = { people: number; returned: number };

type Verdict =
  /** Not enough people, or an interval too wide to say anything: `neededMore` more people would. */
  | "too_early"
  /** The interval is above 0: the message brings people back. */
  | "likely_real"
  /** The interval is below 0: those sent the message come back less. */
  | "likely_negative"
  /** Enough people, and the interval holds no effect of `MIN_EFFECT` or more either way. */
  | "no_clear_difference";

type Comparison = {
  verdict: Verdict;
  /** Return rates (0–1), null for an empty group. */
  sentRate: number | null;
  holdoutRate: number | null;
  /** sentRate − holdoutRate (−1 to 1), null when a group is empty. */
  difference: number | null;
  /** The 95 % interval of the difference, null when a group is empty. */
  interval: readonly [number, number] | null;
  /** How many more people (both groups together, at this holdout share) before a conclusion, when too early. */
  neededMore: number | null;
};

/** z for a two-sided 95 % interval. */
const Z = 1.959963984540054;
/** Each group needs at least this many people before any figure is compared. */
export const MIN_GROUP = 20;
/** The smallest difference worth telling an owner about: 5 points of return rate. */
const MIN_EFFECT = 0.05;

/** Wilson's score interval of one proportion. */
export function wilsonInterval({ people: n, returned: r }: Group): readonly [number, number] {
  if (n <= 0) return [0, 1];
  const p = r / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z / (1 + z2 / n)) * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Newcombe's interval (method 10) for p(sent) − p(holdout). */
export function differenceInterval(sent: Group, holdout: Group): readonly [number, number] {
  const p1 = sent.returned / sent.people;
  const p2 = holdout.returned / holdout.people;
  const [l1, u1] = wilsonInterval(sent);
  const [l2, u2] = wilsonInterval(holdout);
  const d = p1 - p2;
  return [d - Math.hypot(p1 - l1, u2 - p2), d + Math.hypot(u1 - p1, p2 - l2)];
}

/**
 * How many people in all (at holdout share `h`) make the interval's half-width smaller than `effect`, at the pooled
 * return rate `p` (the usual sample size of a two-group comparison of proportions).
 */
function peopleFor(p: number, h: number, effect: number): number {
  const variance = Math.max(p * (1 - p), 0.05 * 0.95);
  return Math.ceil((Z * Z * variance * (1 / (1 - h) + 1 / h)) / (effect * effect));
}

/**
 * Compares the group sent the message with the holdout. `holdoutShare` (0–1) is the share held out from now on,
 * for « how many more »; 0 means no conclusion can ever come (neededMore null).
 */
export function compareGroups(sent: Group, holdout: Group, holdoutShare: number): Comparison {
  const sentRate = sent.people > 0 ? sent.returned / sent.people : null;
  const holdoutRate = holdout.people > 0 ? holdout.returned / holdout.people : null;
  const difference = sentRate !== null && holdoutRate !== null ? sentRate - holdoutRate : null;
  const interval = difference !== null ? differenceInterval(sent, holdout) : null;
  const total = sent.people + holdout.people;
  const h = Math.min(0.5, Math.max(0, holdoutShare));
  const canConclude = h > 0;

  if (sent.people < MIN_GROUP || holdout.people < MIN_GROUP || interval === null || difference === null) {
    const needed = canConclude ? Math.max(Math.ceil(MIN_GROUP / h), Math.ceil(MIN_GROUP / (1 - h))) - total : null;
    return {
      verdict: "too_early",
      sentRate,
      holdoutRate,
      difference,
      interval,
      neededMore: needed === null ? null : Math.max(1, needed),
    };
  }
  const [low, high] = interval;
  if (low > 0) return { verdict: "likely_real", sentRate, holdoutRate, difference, interval, neededMore: null };
  if (high < 0) return { verdict: "likely_negative", sentRate, holdoutRate, difference, interval, neededMore: null };
  if (low > -MIN_EFFECT && high < MIN_EFFECT) {
    return { verdict: "no_clear_difference", sentRate, holdoutRate, difference, interval, neededMore: null };
  }
  const pooled = (sent.returned + holdout.returned) / total;
  const effect = Math.max(Math.abs(difference), MIN_EFFECT);
  return {
    verdict: "too_early",
    sentRate,
    holdoutRate,
    difference,
    interval,
    neededMore: canConclude ? Math.max(1, peopleFor(pooled, h, effect) - total) : null,
  };
}

/** A difference of rates in points of percentage, rounded: « +12 points », « −3 points », « 0 point ». */
export function pointsFr(difference: number): string {
  const n = Math.round(difference * 100);
  return `${formatSigned(n)} ${pluralWord(n, "point", "points")}`;
}

/** The verdict in plain French: « +12 points, probablement réel », « Trop tôt pour conclure »… */
export function verdictFr(c: Comparison): string {
  switch (c.verdict) {
    case "likely_real":
    case "likely_negative":
      return `${pointsFr(c.difference!)}, probablement réel`;
    case "no_clear_difference":
      return `Pas de différence nette (${pointsFr(c.difference!)})`;
    case "too_early":
      return "Trop tôt pour conclure";
  }
}

/** What the verdict rests on: the interval, or how many more people are needed. */
export function verdictDetailFr(c: Comparison): string {
  if (c.verdict === "too_early") {
    if (c.neededMore === null) return "Sans groupe témoin, aucune conclusion n'est possible.";
    return `Il faut encore environ ${plural(c.neededMore, "client concerné", "clients concernés")} pour conclure.`;
  }
  const [low, high] = c.interval!;
  return `Entre ${pointsFr(low)} et ${pointsFr(high)}, avec 95 % de confiance.`;
}

/** How many more visits (or points) the message brought: the sent group's per-person figure above the holdout's. */
export function broughtBy(
  sent: { people: number; total: number },
  holdout: { people: number; total: number },
): number | null {
  if (sent.people === 0 || holdout.people === 0) return null;
  return Math.round((sent.total / sent.people - holdout.total / holdout.people) * sent.people);
}
