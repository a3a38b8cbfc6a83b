import { Link } from "react-router";
import { LotsToCollect } from "../../../components/contests/won-lots.tsx";
import { MyPrepaid } from "../../../components/prepaid/my-prepaid.tsx";
import { loyaltyCardsFr, seenAtFr, visitsFr } from "../../../../domain/phrases.ts";
import { Glyph, GlyphBadge } from "../../../components/loyalty/glyph.tsx";
import { LoyaltyCard } from "../../../components/loyalty/loyalty-card.tsx";
import { type MyCard, useMyCards } from "../../../components/loyalty/my-cards-query.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { formatMoment } from "../../../../domain/format.ts";
import { CardOffersLine, CardRewardsLine, cardHint } from "../components/card-rewards.tsx";
import { MyClientCard } from "../components/my-client-card.tsx";
import { useNoWallet, WalletButtons } from "../components/wallet-buttons.tsx";

function CardFooter({ card }: { card: MyCard }) {
  const visits = visitsFr(card.visits);
  return (
    <div
      className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 border-t pt-3"
      style={{ borderColor: `${card.shop.design.foreground}40` }}
    >
      <span>
        {visits}
        {card.lastScanAt ? ` · dernier ${formatMoment(card.lastScanAt)}` : ""}
      </span>
      {card.shop.status === "suspended" ? (
        <span className="font-semibold">Boutique suspendue</span>
      ) : !card.canScanNow && card.nextScanAt ? (
        <span className="inline-flex items-center gap-1 font-semibold">
          <Glyph name="clock" className="size-4" />
          Prochain : {formatMoment(card.nextScanAt)}
        </span>
      ) : null}
    </div>
  );
}

function EmptyCards() {
  return (
    <div className="flex flex-col items-center gap-4 rounded-3xl bg-white px-6 py-8 text-center shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <GlyphBadge name="card" size="lg" />
      <h2 className="text-xl font-bold">Pas encore de carte</h2>
      <p className="text-stone-700 dark:text-stone-300">
        Votre première carte s'ouvre lors de votre prochain passage dans une boutique Fidèle : au comptoir, scannez le
        code affiché avec l'appareil photo de votre téléphone ou avec le scanner de l'application. Votre passage est
        crédité aussitôt.
      </p>
      <div className="grid w-full grid-cols-1 gap-3">
        <ButtonLink to="/scanner" full>
          <Glyph name="camera" className="size-5" />
          Ouvrir le scanner
        </ButtonLink>
        <ButtonLink to="/boutiques" variant="secondary" full>
          Trouver une boutique
        </ButtonLink>
      </div>
    </div>
  );
}

/** /cartes-de-fidelite: my cards in each shop's design, readable offline once seen (my-cards-query.ts). */
export default function CardsPage() {
  const cards = useMyCards();
  const noWallet = useNoWallet();
  const isStale = Boolean(cards.data) && (cards.isError || cards.isPaused || cards.fetchStatus === "paused");
  return (
    <div className="mx-auto flex max-w-md flex-col gap-5 px-5 pb-8 pt-6">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold tracking-tight">Mes cartes</h1>
          <p className="mt-1 text-stone-700 dark:text-stone-300">
            {cards.data && cards.data.length > 0
              ? `${loyaltyCardsFr(cards.data.length)}, la dernière visitée en premier.`
              : "Vos cartes de fidélité, toujours sur vous."}
          </p>
        </div>
        <Link
          to="/scanner"
          className="flex size-12 shrink-0 items-center justify-center rounded-2xl bg-brand-700 text-white shadow-sm hover:bg-brand-800"
          aria-label="Scanner un code"
        >
          <Glyph name="camera" />
        </Link>
      </div>

      <MyClientCard />
      {noWallet && cards.data && cards.data.length > 0 ? (
        <p className="text-sm text-stone-600 dark:text-stone-400" data-testid="wallet-off">
          L'ajout des cartes au portefeuille du téléphone (Apple Wallet, Google Wallet) n'est pas proposé sur ce
          service.
        </p>
      ) : null}

      {isStale ? (
        <Notice tone="info">
          Hors connexion : soldes {seenAtFr(cards.dataUpdatedAt, undefined, cards.data && cards.data.length > 1)}. Ils
          se mettront à jour dès le retour du réseau.
        </Notice>
      ) : null}
      {cards.isError && !cards.data ? <Notice tone="error">{cards.error.message}</Notice> : null}
      <LotsToCollect />
      <MyPrepaid />

      {cards.data === undefined ? (
        cards.isError ? null : (
          <div className="flex flex-col gap-4" aria-busy="true" role="status">
            <span className="sr-only">Chargement de vos cartes…</span>
            {[0, 1].map((i) => (
              <div key={i} className="h-52 animate-pulse rounded-3xl bg-stone-200 dark:bg-stone-800" />
            ))}
          </div>
        )
      ) : cards.data.length === 0 ? (
        <EmptyCards />
      ) : (
        <ul className="flex flex-col gap-4">
          {cards.data.map((card) => (
            <li key={card.id}>
              <Link to={`/shop/${card.shop.slug}`} className="block rounded-3xl transition active:scale-[0.99]">
                <LoyaltyCard
                  shopName={card.shop.name}
                  subtitle={card.shop.city}
                  design={card.shop.design}
                  logoUrl={card.shop.logoUrl}
                  progress={card.progress}
                  hint={cardHint(card.rewards)}
                  footer={
                    <>
                      <CardRewardsLine mode={card.progress.mode} rewards={card.rewards} />
                      <CardOffersLine mode={card.progress.mode} offers={card.offers} />
                      <CardFooter card={card} />
                      {isStale ? (
                        <p className="mt-1 text-xs font-medium" data-testid="card-seen-at">
                          Solde {seenAtFr(cards.dataUpdatedAt)}
                        </p>
                      ) : null}
                    </>
                  }
                />
              </Link>
              {card.offers?.some((o) => o.kind === "reward" && !o.claimed) ? (
                <div className="mt-2">
                  <ButtonLink to="/vip" variant="secondary" full>
                    Recevoir mon offre<span className="sr-only"> de {card.shop.name}</span>
                  </ButtonLink>
                </div>
              ) : null}
              <div className="mt-2 flex flex-col gap-2">
                <WalletButtons cardId={card.id} shopName={card.shop.name} />
                <Link
                  to={`/parrainer?shop=${card.shop.slug}`}
                  className="self-start rounded-lg px-1 py-2 text-sm font-semibold text-brand-800 underline dark:text-brand-200"
                >
                  Parrainer un proche chez {card.shop.name}
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
