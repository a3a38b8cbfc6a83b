import { Link } from "react-router";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { claimGift } from "../api/claim-gift.ts";
import { type VipCard, type VipGift, useVip } from "../api/get-vip.ts";
import { useReservation } from "../api/use-reservation.ts";
import { GiftIcon } from "../components/gift-icon.tsx";
import { ProgressBar } from "../components/progress-bar.tsx";
import { formatList, pluralWord } from "../../../../domain/format.ts";

const perkFr = (mode: VipCard["mode"], multiplier: number) =>
  multiplier > 1 ? `${mode === "stamps" ? "tampons" : "points"} ×${multiplier}` : "Pas de bonus";

function GiftRow({ card, gift }: { card: VipCard; gift: VipGift }) {
  const claim = useReservation((idempotencyKey) =>
    claimGift({
      cardId: card.cardId,
      source: gift.source,
      tierId: gift.tierId,
      offerId: gift.offerId,
      referralId: gift.referralId,
      idempotencyKey,
    }),
  );
  return (
    <li className="flex flex-col gap-2 rounded-2xl bg-accent-400/15 p-3 ring-1 ring-accent-400/50">
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-400 text-stone-950">
          <GiftIcon className="size-5" />
        </span>
        <p className="min-w-0 flex-1 font-semibold">{gift.title}</p>
      </div>
      {gift.status === "validated" ? (
        <p className="flex items-center gap-1 text-sm font-semibold text-emerald-800 dark:text-emerald-300">
          <Glyph name="check" className="size-4" /> Reçu
        </p>
      ) : gift.status === "pending" && gift.redemptionId ? (
        <ButtonLink to={`/validation-recompense/${gift.redemptionId}`} variant="secondary" full>
          Voir<span className="sr-only"> mon cadeau en cours : {gift.title}</span>
        </ButtonLink>
      ) : (
        <Button onClick={claim.reserveNow} isLoading={claim.isBusy} full>
          Recevoir mon cadeau
        </Button>
      )}
      {claim.isError ? <Notice tone="error">{errorText(claim.error)}</Notice> : null}
    </li>
  );
}

function VipCardView({ card }: { card: VipCard }) {
  const titleId = `vip-${card.cardId}`;
  return (
    <section
      aria-labelledby={titleId}
      className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800"
    >
      <div className="flex items-center gap-3 bg-gradient-to-br from-brand-800 to-brand-900 p-5 text-white">
        {card.shop.logoUrl ? (
          <img src={card.shop.logoUrl} alt="" className="size-12 shrink-0 rounded-2xl bg-white object-cover" />
        ) : (
          <span
            className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-white/15"
            aria-hidden="true"
          >
            <Glyph name="store" />
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h2 id={titleId} className="text-lg font-bold leading-tight break-words">
            <Link to={`/shop/${card.shop.slug}`} className="hover:underline">
              {card.shop.name}
            </Link>
          </h2>
          <p className="text-sm text-brand-100">
            {card.lifetimeLabel} {pluralWord(card.lifetime, "cumulé", "cumulés")} depuis le début
          </p>
        </div>
        <span
          className={`shrink-0 rounded-full px-3 py-1 text-sm font-bold ${card.current ? "bg-accent-400 text-stone-950" : "bg-white/15 text-white"}`}
        >
          {card.current ? card.current.name : "Aucun niveau"}
        </span>
      </div>
      <div className="flex flex-col gap-4 p-5">
        {card.next ? (
          <div>
            <ProgressBar percent={card.percent} label={`Progression vers le niveau ${card.next.name}`} tone="accent" />
            <p className="mt-2 text-sm font-medium">
              Encore {card.next.missingLabel} pour atteindre {card.next.name}
            </p>
          </div>
        ) : (
          <p className="flex items-center gap-2 text-sm font-semibold text-emerald-800 dark:text-emerald-300">
            <Glyph name="sparkle" className="size-5" /> Niveau le plus haut atteint : merci de votre fidélité !
          </p>
        )}
        {card.current && card.current.multiplier > 1 ? (
          <p className="rounded-xl bg-brand-50 px-3 py-2 text-sm text-brand-900 dark:bg-stone-800 dark:text-brand-100">
            Avantage {card.current.name} : chaque passage vous rapporte {perkFr(card.mode, card.current.multiplier)}.
          </p>
        ) : null}
        <div>
          <h3 className="text-sm font-semibold text-stone-700 dark:text-stone-300">Les niveaux</h3>
          <ol className="mt-2 flex flex-col gap-2">
            {card.tiers.map((tier) => {
              const isMine = card.current?.id === tier.id;
              return (
                <li
                  key={tier.id}
                  className={`flex items-center gap-3 rounded-xl border p-3 ${
                    isMine ? "border-accent-500 bg-accent-400/10" : "border-stone-200 dark:border-stone-800"
                  }`}
                >
                  <span
                    className={`flex size-8 shrink-0 items-center justify-center rounded-full ${
                      tier.reached
                        ? "bg-emerald-700 text-white"
                        : "bg-stone-200 text-stone-600 dark:bg-stone-800 dark:text-stone-300"
                    }`}
                    aria-hidden="true"
                  >
                    {tier.reached ? (
                      <Glyph name="check" className="size-4" />
                    ) : (
                      <Glyph name="clock" className="size-4" />
                    )}
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="font-semibold">
                      {tier.name}
                      {isMine ? (
                        <span className="ml-1 text-xs font-bold uppercase text-amber-800 dark:text-amber-300">
                          {" "}
                          · mon niveau
                        </span>
                      ) : null}
                      <span className="sr-only">{tier.reached ? " (atteint)" : " (pas encore atteint)"}</span>
                    </p>
                    <p className="text-sm text-stone-600 dark:text-stone-400">
                      Dès {tier.thresholdLabel} · {perkFr(card.mode, tier.multiplier)}
                      {tier.gift ? ` · cadeau : ${tier.gift}` : ""}
                    </p>
                  </div>
                </li>
              );
            })}
          </ol>
        </div>
        {card.gifts.length > 0 ? (
          <div>
            <h3 className="text-sm font-semibold text-stone-700 dark:text-stone-300">Mes cadeaux</h3>
            <ul className="mt-2 flex flex-col gap-2">
              {card.gifts.map((gift) => (
                <GiftRow
                  key={`${gift.source}-${gift.tierId ?? gift.offerId ?? gift.referralId ?? "birthday"}`}
                  card={card}
                  gift={gift}
                />
              ))}
            </ul>
          </div>
        ) : null}
      </div>
    </section>
  );
}

/**
 * /vip: my level in each shop that has levels (on points earned since the start, so spending never lowers it),
 * what the next level needs, the ladder with its perks and gifts, and the gifts I can receive now.
 */
export default function VipPage() {
  const vip = useVip();
  const withLevels = vip.data?.cards.filter((c) => c.tiers.length > 0 || c.gifts.length > 0) ?? [];
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-10 pt-6">
      <div>
        <h1 className="text-2xl font-bold tracking-tight">Mes niveaux VIP</h1>
        <p className="mt-2 text-stone-700 dark:text-stone-300">
          Vos niveaux se calculent sur tout ce que vous avez cumulé depuis votre premier passage. Utiliser une
          récompense ne fait jamais baisser votre niveau.
        </p>
      </div>
      {vip.isPending ? (
        <div className="flex flex-col gap-4" aria-busy="true">
          <span className="sr-only">Chargement de vos niveaux…</span>
          <div className="h-64 animate-pulse rounded-3xl bg-stone-200 dark:bg-stone-800" />
        </div>
      ) : vip.isError ? (
        <Notice tone="error">{vip.error.message}</Notice>
      ) : withLevels.length === 0 ? (
        <div className="flex flex-col items-center gap-4 rounded-3xl bg-white px-6 py-8 text-center shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
          <GlyphBadge name="sparkle" size="lg" />
          <h2 className="text-xl font-bold">Pas encore de niveau VIP</h2>
          <p className="text-stone-700 dark:text-stone-300">
            {vip.data.cards.length === 0
              ? "Vous n'avez pas encore de carte. Passez dans une boutique Fidèle et scannez son code : certaines récompensent leurs habitués avec des niveaux Argent, Or…"
              : "Les boutiques de vos cartes ne proposent pas encore de niveaux. Découvrez celles qui récompensent leurs habitués."}
          </p>
          <ButtonLink to="/boutiques" full>
            Découvrir les boutiques
          </ButtonLink>
        </div>
      ) : (
        withLevels.map((card) => <VipCardView key={card.cardId} card={card} />)
      )}
      {vip.data && !vip.data.hasBirthday && vip.data.cards.some((c) => c.birthdayGift) ? (
        <p className="text-sm text-stone-700 dark:text-stone-300">
          {birthdayShops(vip.data.cards)} la semaine de votre anniversaire.{" "}
          <Link to="/edit-profil" className="font-semibold text-brand-800 underline dark:text-brand-200">
            Indiquer ma date de naissance
          </Link>
        </p>
      ) : null}
    </div>
  );
}

/** "Boulangerie du Marché vous offre un cadeau" / "X et Y vous offrent un cadeau". */
function birthdayShops(cards: { shop: { name: string }; birthdayGift: { title: string } | null }[]): string {
  const names = cards.filter((c) => c.birthdayGift).map((c) => c.shop.name);
  const list = formatList(names);
  return `${list} ${names.length > 1 ? "vous offrent" : "vous offre"} un cadeau`;
}
