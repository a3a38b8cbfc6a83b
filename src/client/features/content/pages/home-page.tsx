import { onlineManager } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useLocation, useNavigate } from "react-router";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { useMe } from "../../../lib/me.ts";
import { queryClient } from "../../../lib/query-client.ts";
import { articlesQueryOptions } from "../api/list-articles.ts";
import { LatestArticles, PANEL } from "../components/latest-articles.tsx";
import { SiteFooter } from "../components/site-footer.tsx";

/** A loyalty card drawn in CSS: seven stamps of ten, the way a shopper sees their progress. */
function CardPreview() {
  return (
    <div
      className="relative mx-auto w-full max-w-xs rotate-[-2deg] rounded-3xl bg-white p-5 text-stone-900 shadow-xl ring-1 ring-black/5"
      role="img"
      aria-label="Exemple de carte de fidélité : 7 tampons sur 10, un café offert au dixième"
    >
      <div className="flex items-center justify-between">
        <div>
          <p className="text-xs font-semibold uppercase tracking-wider text-stone-600">Boulangerie du Marché</p>
          <p className="text-lg font-black">7 / 10 passages</p>
        </div>
        <span className="rounded-full bg-accent-400 px-3 py-1 text-xs font-bold text-stone-950">Café offert à 10</span>
      </div>
      <div className="mt-4 grid grid-cols-5 gap-2" aria-hidden="true">
        {Array.from({ length: 10 }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed row of stamps.
            key={i}
            className={`flex aspect-square items-center justify-center rounded-full text-sm font-bold ${
              i < 7 ? "bg-brand-700 text-white" : "border-2 border-dashed border-stone-400 text-stone-600"
            }`}
          >
            {i < 7 ? "✓" : i + 1}
          </span>
        ))}
      </div>
    </div>
  );
}

const STEPS = [
  ["Créez votre compte", "En moins d'une minute, avec votre adresse e-mail. C'est gratuit."],
  ["Scannez en boutique", "Le code affiché au comptoir crédite votre passage, sur place, en un instant."],
  ["Profitez de vos récompenses", "Au bon nombre de points, montrez votre écran : la boutique valide en un geste."],
] as const;

const REASONS = [
  ["Plus de carte oubliée", "Toutes vos cartes sont dans votre téléphone, même sans réseau une fois consultées."],
  ["Des points qui comptent", "Le code du comptoir change toutes les 30 secondes : personne ne triche, vos récompenses gardent leur valeur."],
  ["Vos données respectées", "Aucune publicité, rien de revendu, et les messages des boutiques seulement si vous le voulez."],
] as const;

function VisitorHome() {
  return (
    <>
      <section className="bg-gradient-to-b from-brand-800 to-brand-900 px-5 pb-10 pt-8 text-white">
        <div className="mx-auto max-w-md">
          <h1 className="text-[2rem] font-black leading-tight tracking-tight">Vos cartes de fidélité, enfin dans votre poche.</h1>
          <p className="mt-3 text-lg text-brand-50">
            Scannez le code de vos commerçants, cumulez des points à chaque passage et profitez de récompenses.
          </p>
          <div className="mt-6 flex flex-col gap-3">
            <ButtonLink to="/signup" className="bg-accent-400 text-stone-950 hover:bg-accent-500" full>
              Créer mon compte gratuit
            </ButtonLink>
            <ButtonLink to="/login" variant="ghost" className="text-white ring-1 ring-white/40 hover:bg-white/10" full>
              J'ai déjà un compte
            </ButtonLink>
          </div>
          <div className="mt-8">
            <CardPreview />
          </div>
        </div>
      </section>

      <div className="mx-auto flex max-w-md flex-col gap-8 px-5 py-8">
        <section aria-labelledby="home-steps">
          <h2 id="home-steps" className="text-xl font-bold tracking-tight">
            Comment ça marche
          </h2>
          <ol className="mt-4 flex flex-col gap-3">
            {STEPS.map(([title, text], i) => (
              <li key={title} className={`flex gap-4 p-4 ${PANEL}`}>
                <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-100 font-bold text-brand-800" aria-hidden="true">
                  {i + 1}
                </span>
                <div>
                  <h3 className="font-semibold">{title}</h3>
                  <p className="text-sm text-stone-700 dark:text-stone-300">{text}</p>
                </div>
              </li>
            ))}
          </ol>
        </section>

        <section aria-labelledby="home-why">
          <h2 id="home-why" className="text-xl font-bold tracking-tight">
            Pourquoi Fidèle
          </h2>
          <dl className="mt-4 flex flex-col gap-4">
            {REASONS.map(([title, text]) => (
              <div key={title} className="border-l-4 border-accent-400 pl-4">
                <dt className="font-semibold">{title}</dt>
                <dd className="text-sm text-stone-700 dark:text-stone-300">{text}</dd>
              </div>
            ))}
          </dl>
        </section>

        <section className="rounded-2xl bg-brand-50 p-5 shadow-sm ring-1 ring-brand-100 dark:bg-stone-900 dark:ring-stone-800">
          <h2 className="text-lg font-bold">Vous êtes commerçant ?</h2>
          <p className="mt-1 text-stone-700 dark:text-stone-300">
            Lancez votre carte de fidélité en quelques minutes, sans matériel à acheter ni abonnement.
          </p>
          <ButtonLink to="/offre" variant="secondary" className="mt-4" full>
            Découvrir l'offre commerçants
          </ButtonLink>
        </section>

        <LatestArticles />
      </div>
      <SiteFooter />
    </>
  );
}

/** How long the first screen may wait for the newest posts; later, they appear when they come. */
const LATEST_ARTICLES_WAIT_MS = 1_000;

/**
 * The newest posts are part of the first screen: the server preloads them with the HTML (preloadApi of "/" in
 * src/domain/routes.ts), so they are usually in before the app has started, and the page appears whole instead of
 * drawing itself twice. Offline (the query would pause) or slow, the page does not wait.
 */
export async function loader() {
  if (!onlineManager.isOnline()) return null;
  const latest = queryClient.ensureQueryData(articlesQueryOptions("blog")).catch(() => null);
  await Promise.race([latest, new Promise((resolve) => setTimeout(resolve, LATEST_ARTICLES_WAIT_MS))]);
  return null;
}

// Loaded only for a signed-in shopper (from the service worker's cache after the first visit).
const ShopperHome = lazy(() => import("../components/shopper-home.tsx"));

/**
 * A word the previous page left for the home page (« Votre compte et vos données ont été supprimés. »): shown at the
 * top, the page scrolled there (the profile page was scrolled down to its last section), focused so that screen
 * readers read it, and announced as a status (issue 25 row 1). Read once: the history entry forgets it, so a reload
 * does not say it again.
 */
function ArrivalNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice] = useState(() => (location.state as { notice?: unknown } | null)?.notice);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (typeof notice !== "string") return;
    window.scrollTo(0, 0);
    ref.current?.focus({ preventScroll: true });
    void navigate(location.pathname, { replace: true, state: null });
  }, [notice, navigate, location.pathname]);
  if (typeof notice !== "string") return null;
  return (
    <div ref={ref} tabIndex={-1} className="mx-auto max-w-md px-5 pt-4 outline-none" data-testid="arrival-notice">
      <Notice tone="success">{notice}</Notice>
    </div>
  );
}

export default function HomePage() {
  const { data: me } = useMe();
  if (!me)
    return (
      <>
        <ArrivalNotice />
        <VisitorHome />
      </>
    );
  return (
    <Suspense fallback={<div className="min-h-screen" aria-busy="true" />}>
      <ShopperHome me={me} />
    </Suspense>
  );
}
