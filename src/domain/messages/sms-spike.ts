/**
 * The platform console's SMS spike alert (ADR 0032): a shop's segments today are a
 * spike when they reach `minSegments` and exceed `factor` × its daily mean over the
 * `SPIKE_BASELINE_DAYS` days before today. The floor keeps a shop's first small sends
 * (a mean of 0) quiet; the factor follows each shop's own habit.
 */
import { formatDecimal, plural } from "../format.ts";

export const SPIKE_BASELINE_DAYS = 28;

export function isSmsSpike(
  today: number,
  baselineTotal: number,
  rule: { factor: number; minSegments: number },
): boolean {
  const usual = baselineTotal / SPIKE_BASELINE_DAYS;
  return today >= rule.minSegments && today > rule.factor * usual;
}

/** The alert as the platform console shows it (notices and the SMS list). */
export function smsSpikeMessage(shop: { name: string; todaySegments: number; usualPerDay: number }): string {
  return `Pic d'SMS : « ${shop.name} » a envoyé ${plural(shop.todaySegments, "SMS", "SMS")} aujourd'hui, contre ${formatDecimal(shop.usualPerDay)} par jour en moyenne sur les ${SPIKE_BASELINE_DAYS} jours précédents. Vérifiez ses envois (boîte d'envoi des SMS) et, au besoin, baissez son budget.`;
}
