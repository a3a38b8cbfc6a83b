import { useQueryClient } from "@tanstack/react-query";
import { Link, useParams } from "react-router";
import { redeemRefusalFr, unitLabelFr } from "../../../../domain/loyalty/rewards.ts";
import { reservedForFr } from "../../../../domain/phrases.ts";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useMe } from "../../../lib/me.ts";
import { type RewardPageData, rewardLoader, useRewardPage } from "../api/get-reward-page.ts";
import { rewardsKeys } from "../api/keys.ts";
import { redeemReward } from "../api/redeem-reward.ts";
import { useReservation } from "../api/use-reservation.ts";
import { ProgressBar } from "../components/progress-bar.tsx";
import { RewardShowcase } from "../components/reward-showcase.tsx";

export const loader = rewardLoader;

function ShopLine({ shop }: { shop: RewardPageData["shop"] }) {
  return (
    <Link
      to={`/shop/${shop.slug}`}
      className="flex min-h-11 items-center gap-3 self-start rounded-xl font-semibold text-brand-800 dark:text-brand-200"
    >
      {shop.logoUrl ? (
        <img src={shop.logoUrl} alt="" className="size-9 rounded-xl bg-white object-cover ring-1 ring-stone-200" />
      ) : (
        <span
          className="flex size-9 items-center justify-center rounded-xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200"
          aria-hidden="true"
        >
          <Glyph name="store" className="size-5" />
        </span>
      )}
      <span className="underline-offset-4 hover:underline">{shop.name}</span>
    </Link>
  );
}

function Standing({ data }: { data: RewardPageData }) {
  const { reward, card, shop } = data;
  if (!card) return null;
  return (
    <div className="rounded-2xl bg-stone-50 p-4 dark:bg-stone-950">
      <div className="flex items-baseline justify-between gap-3">
        <p className="text-sm font-medium text-stone-700 dark:text-stone-300">Mon solde</p>
        <p className="text-lg font-bold tabular-nums">{card.balanceLabel}</p>
      </div>
      <div className="mt-2">
        <ProgressBar
          percent={reward.progressPercent}
          label={`Progression vers « ${reward.title} »`}
          tone={reward.missing === 0 ? "success" : "brand"}
        />
      </div>
      <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
        {reward.missing === 0
          ? "Votre solde suffit pour cette récompense."
          : `Encore ${unitLabelFr(shop.mode, reward.missing)} pour cette récompense.`}
      </p>
    </div>
  );
}

/**
 * The action of the page: resume a pending redemption, "Utiliser" when reachable, the French reason when not, or
 * sign in. One tap gets one key, kept for retries after a network failure, so it never reserves twice.
 */
function Action({ data, slug }: { data: RewardPageData; slug: string }) {
  const { data: me } = useMe();
  const queryClient = useQueryClient();
  const redeem = useReservation((idempotencyKey) => redeemReward(slug, idempotencyKey), {
    onRefused: () => void queryClient.invalidateQueries({ queryKey: rewardsKeys.page(slug) }),
  });
  const { reward, pendingRedemptionId, shop } = data;

  if (!me) {
    return (
      <div className="flex flex-col gap-3">
        <p className="text-stone-700 dark:text-stone-300">
          Connectez-vous pour voir votre solde et utiliser cette récompense en boutique.
        </p>
        <ButtonLink to={`/login?redirect=${encodeURIComponent(`/reward/${slug}`)}`} full>
          Se connecter pour l'utiliser
        </ButtonLink>
      </div>
    );
  }
  if (pendingRedemptionId) {
    return (
      <div className="flex flex-col gap-3">
        <Notice>Vous avez déjà demandé cette récompense : son code vous attend. Montrez-le au comptoir.</Notice>
        <ButtonLink to={`/validation-recompense/${pendingRedemptionId}`} full className="text-center">
          Reprendre ma récompense en cours
        </ButtonLink>
      </div>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      {redeem.isError ? <Notice tone="error">{errorText(redeem.error)}</Notice> : null}
      {reward.reachable ? (
        <>
          <Button onClick={redeem.reserveNow} isLoading={redeem.isBusy} full className="min-h-14 text-lg">
            Utiliser
          </Button>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Un code s'affiche : montrez-le au comptoir.{" "}
            {reservedForFr(shop.mode, reward.cost, shop.redemptionTtlMinutes)}
          </p>
        </>
      ) : reward.refusal &&
        reward.refusal !== redeemRefusalFr("insufficient", { mode: shop.mode, missing: reward.missing }) ? (
        // "Il vous manque…" would repeat the balance box above; any other reason is said here.
        <Notice>{reward.refusal}</Notice>
      ) : null}
    </div>
  );
}

/** /reward/{rewardSlug}: one reward, where I stand, and "Utiliser". Public; an unknown slug is a 404 (the loader). */
export default function RewardPage() {
  const { rewardSlug = "" } = useParams();
  const { data } = useRewardPage(rewardSlug);
  const { reward, shop } = data;
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-5">
      <RewardShowcase
        title={reward.title}
        description={reward.description}
        photoUrl={reward.photoUrl}
        costLabel={reward.costLabel}
        conditions={reward.conditions}
        shop={<ShopLine shop={shop} />}
      >
        <Standing data={data} />
        <Action data={data} slug={rewardSlug} />
      </RewardShowcase>
      <p className="text-center text-sm">
        <Link to={`/shop/${shop.slug}`} className="font-semibold text-brand-800 underline dark:text-brand-200">
          Toutes les récompenses de {shop.name}
        </Link>
      </p>
    </div>
  );
}
