import type { CardMode } from "../../../../domain/format.ts";
import { offerLineFr } from "../../../../domain/messages/offers.ts";
import { rewardsGlanceFr } from "../../../../domain/phrases.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import type { MyCard } from "../../../components/loyalty/my-cards-query.ts";

type Glance = MyCard["rewards"];

/**
 * The card's own sentence under its stamps (« Plus que 2 tampons avant votre récompense ») stands only when the shop
 * names no reward: beside « 2 récompenses disponibles · Prochaine récompense : … » it would contradict it (issue 25
 * row 12). null hides it, undefined keeps it.
 */
export const cardHint = (rewards: Glance | undefined) =>
  rewards && (rewards.reachable > 0 || rewards.next) ? null : undefined;

/** "2 récompenses disponibles · Prochaine récompense : Café offert (encore 3 tampons)", from the card's glance. */
export function CardRewardsLine({ mode, rewards }: { mode: CardMode; rewards: Glance | undefined }) {
  const line = rewards ? rewardsGlanceFr(mode, rewards) : null;
  if (!line) return null;
  return (
    <p className="mb-2 flex items-start gap-1.5 font-semibold" data-testid="card-rewards">
      <Glyph name="sparkle" className="mt-0.5 size-4 shrink-0" />
      {line}
    </p>
  );
}

/** The shop's offers to me still running (an automation's, issue 27): the same words as in its message. */
export function CardOffersLine({ mode, offers }: { mode: CardMode; offers: MyCard["offers"] | undefined }) {
  if (!offers?.length) return null;
  return (
    <ul className="mb-2 flex flex-col gap-1" data-testid="card-offers">
      {offers.map((o) => (
        <li key={`${o.kind}-${o.until}`} className="flex items-start gap-1.5 font-semibold">
          <Glyph name="sparkle" className="mt-0.5 size-4 shrink-0" />
          {offerLineFr(o, mode, { at: new Date(o.until), timeZone: o.timeZone })}
          {o.kind === "reward" && o.claimed ? " (demandé)" : ""}
        </li>
      ))}
    </ul>
  );
}
