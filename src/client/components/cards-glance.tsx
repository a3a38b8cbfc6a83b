import { Link } from "react-router";
import { Glyph } from "./loyalty/glyph.tsx";
import { progressLabelFr, readableOn } from "./loyalty/loyalty-card.tsx";
import { useMyCards } from "./loyalty/my-cards-query.ts";
import { StampIcon } from "./loyalty/stamp-icon.tsx";
import { ButtonLink } from "./ui/button.tsx";

/**
 * "Vos cartes en un coup d'œil" for the signed-in home page: the three last visited cards as small tiles in
 * their shop's colours with a progress bar, or how to get a first card. Uses the same (offline-kept) query as
 * /cartes-de-fidelite.
 */
export function CardsGlance() {
  const { data: cards } = useMyCards();
  const shown = cards?.slice(0, 3) ?? [];
  return (
    <section aria-labelledby="cards-glance-title" className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="cards-glance-title" className="text-lg font-semibold">
          Vos cartes en un coup d'œil
        </h2>
        {cards && cards.length > 3 ? (
          <Link to="/cartes-de-fidelite" className="text-sm font-semibold text-brand-800 dark:text-brand-200">
            Toutes ({cards.length})
          </Link>
        ) : null}
      </div>
      {cards && shown.length === 0 ? (
        <p className="mt-1 text-stone-700 dark:text-stone-300">
          Au comptoir d'une boutique Fidèle, scannez son code : votre carte s'ouvre et votre passage est crédité.
        </p>
      ) : (
        <ul className="mt-3 flex flex-col gap-2">
          {shown.map((card) => {
            const { design } = card.shop;
            const percent = card.progress.mode === "stamps" ? card.progress.percent : null;
            return (
              <li key={card.id}>
                <Link
                  to={`/shop/${card.shop.slug}`}
                  className="flex items-center gap-3 rounded-2xl p-3 shadow-sm"
                  style={{ background: design.background, color: design.foreground }}
                >
                  <span className="flex size-10 shrink-0 items-center justify-center rounded-full" style={{ background: design.accent, color: readableOn(design.accent) }}>
                    <StampIcon name={design.stampIcon} className="size-5" />
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate font-semibold">{card.shop.name}</span>
                    <span className="block text-sm">{progressLabelFr(card.progress)}</span>
                    {card.rewards?.reachable ? (
                      <span className="block text-sm font-semibold">
                        {card.rewards.reachable} récompense{card.rewards.reachable > 1 ? "s" : ""} disponible{card.rewards.reachable > 1 ? "s" : ""}
                      </span>
                    ) : null}
                    {percent !== null ? (
                      <span className="mt-1.5 block h-1.5 overflow-hidden rounded-full" style={{ background: `${design.foreground}33` }} aria-hidden="true">
                        <span className="block h-full rounded-full" style={{ width: `${percent}%`, background: design.accent }} />
                      </span>
                    ) : null}
                  </span>
                  <Glyph name="chevron" className="size-5 shrink-0" />
                </Link>
              </li>
            );
          })}
        </ul>
      )}
      <div className="mt-4 grid grid-cols-2 gap-3">
        <ButtonLink to="/scanner" full>
          Scanner un code
        </ButtonLink>
        <ButtonLink to="/cartes-de-fidelite" variant="secondary" full>
          Mes cartes
        </ButtonLink>
      </div>
    </section>
  );
}
