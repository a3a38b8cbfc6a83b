import { type CardMode, formatDateTimeIn, plural, unitWord } from "../format.ts";

/**
 * An offer the owner may attach (issue 27 item 1): double points at the shop for the recipient alone, or one of the
 * shop's rewards as a gift, for `days` days from the occasion. Each recipient gets it once per occasion (the
 * occasion's row holds it); the held out and the shop's own team never do.
 */
export const OFFER_KINDS = ["double_points", "reward"] as const;
export type OfferKind = (typeof OFFER_KINDS)[number];
export const DEFAULT_OFFER_DAYS = 7;
export const MAX_OFFER_DAYS = 30;

/**
 * The offer's line under the message: the same words in the phone preview and in what is sent. `until`: the
 * recipient's last day (the preview, not knowing it, says how long).
 */
export function offerLineFr(
  offer: { kind: OfferKind; rewardTitle: string | null; days?: number },
  mode: CardMode,
  until: { at: Date; timeZone: string } | null,
): string {
  const when = until
    ? `jusqu'au ${formatDateTimeIn(until.at, until.timeZone)}`
    : `pendant ${plural(offer.days ?? DEFAULT_OFFER_DAYS, "jour", "jours")}`;
  return offer.kind === "double_points"
    ? `Votre offre : vos ${unitWord(mode, 2)} doublés à chaque passage, ${when}.`
    : `Votre offre : « ${offer.rewardTitle ?? "une récompense"} » offert, à demander en boutique depuis votre carte, ${when}.`;
}
