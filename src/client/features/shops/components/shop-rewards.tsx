import { Link } from "react-router";
import { formatAmount } from "../../../../domain/format.ts";
import { rewardsAvailableFr } from "../../../../domain/phrases.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { Section } from "../../../components/ui/section.tsx";
import type { ShopPageData } from "../api/get-shop.ts";

type ShopReward = ShopPageData["rewards"][number];
type CardModeOf = ShopPageData["rules"]["mode"];

/** "Encore 3 tampons" / "Encore 40 points", in the card's unit. */
const missingFr = (mode: CardModeOf, n: number) => `Encore ${formatAmount(mode, n)}`;

function RewardRow({ reward, mode, isSignedIn }: { reward: ShopReward; mode: CardModeOf; isSignedIn: boolean }) {
  const showProgress = isSignedIn && !reward.reachable && reward.missing > 0;
  return (
    <li>
      <Link
        to={`/reward/${reward.slug}`}
        className="flex items-center gap-3 rounded-2xl p-2 hover:bg-stone-50 dark:hover:bg-stone-800"
      >
        {reward.photoUrl ? (
          <img src={reward.photoUrl} alt="" className="size-16 shrink-0 rounded-xl object-cover" />
        ) : (
          <span className="flex size-16 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
            <Glyph name="sparkle" className="size-7" />
          </span>
        )}
        <span className="min-w-0 flex-1">
          <span className="block font-semibold leading-snug break-words text-stone-900 dark:text-stone-100">
            {reward.title}
          </span>
          <span className="mt-0.5 flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-stone-700 dark:text-stone-300">
            <span>{reward.costLabel}</span>
            {reward.reachable ? (
              <span className="rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-bold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
                Disponible
              </span>
            ) : null}
          </span>
          {showProgress ? (
            <span className="mt-0.5 block text-sm font-medium text-stone-800 dark:text-stone-200">
              {missingFr(mode, reward.missing)}
            </span>
          ) : null}
          {showProgress ? (
            <span
              className="mt-1.5 block h-1.5 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-700"
              role="progressbar"
              aria-label={`Progression vers « ${reward.title} »`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={reward.progressPercent}
            >
              <span
                className="block h-full rounded-full bg-brand-700 dark:bg-brand-500"
                style={{ width: `${reward.progressPercent}%` }}
              />
            </span>
          ) : null}
        </span>
        <Glyph name="chevron" className="size-5 shrink-0 text-stone-500" />
      </Link>
    </li>
  );
}

/** What the shop offers for points: each reward, and whether I can take it now or what is missing. */
export function ShopRewards({ data, isSignedIn }: { data: ShopPageData; isSignedIn: boolean }) {
  if (data.rewards.length === 0) return null;
  const reachable = data.rewards.filter((r) => r.reachable).length;
  return (
    <Section title="Récompenses" id="recompenses">
      {isSignedIn && reachable > 0 ? (
        <p className="mb-2 text-sm font-semibold text-emerald-800 dark:text-emerald-300">
          {rewardsAvailableFr(reachable)} avec votre solde.
        </p>
      ) : null}
      <ul className="-mx-2 flex flex-col gap-1">
        {data.rewards.map((reward) => (
          <RewardRow key={reward.id} reward={reward} mode={data.rules.mode} isSignedIn={isSignedIn} />
        ))}
      </ul>
    </Section>
  );
}
