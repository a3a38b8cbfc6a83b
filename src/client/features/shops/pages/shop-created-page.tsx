import { useQuery } from "@tanstack/react-query";
import { Link, useLocation, useSearchParams } from "react-router";
import { myShopsQueryOptions } from "../../../components/shop/current-shop.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { useFreshCardSettings } from "../components/reward-missing.tsx";

type NextStep = { to: string; title: string; text: string };

/** Onboarding's first step while the card offers nothing to exchange (issue 25 row 10). */
const REWARD_STEP: NextStep = {
  to: "/admin/ajouter-un-reward",
  title: "Choisissez votre récompense",
  text: "Ce que vos clients obtiennent avec leur carte (un café offert quand elle est pleine, par exemple) : sans elle, ils cumulent sans rien à échanger.",
};

const NEXT_STEPS: NextStep[] = [
  {
    to: "/admin/creativcard",
    title: "Dessinez votre carte",
    text: "Vos couleurs, votre logo, tampons ou points, et les règles de passage.",
  },
  {
    to: "/admin/horaires",
    title: "Indiquez vos horaires",
    text: "Vos clients voient « ouvert maintenant », et les passages hors horaires vous sont signalés.",
  },
  {
    to: "/admin/creativcard#affiche",
    title: "Imprimez l'affiche",
    text: "Une affiche A4 avec votre code, à coller en vitrine ou près de la caisse (si vous l'autorisez).",
  },
  {
    to: "/reader",
    title: "Ouvrez le code du comptoir",
    text: "Sur une tablette ou un téléphone posé à la caisse : le code change toutes les 30 secondes.",
  },
];

/** /result-boutique: the shop exists; what to do next. */
export default function ShopCreatedPage() {
  const [params] = useSearchParams();
  const location = useLocation();
  const fromState = (location.state as { shop?: { id: string; name: string } } | null)?.shop;
  const shopId = params.get("boutique") ?? fromState?.id ?? null;
  const shops = useQuery(myShopsQueryOptions());
  const shop = shops.data?.find((s) => s.id === shopId) ?? (fromState && fromState.id === shopId ? fromState : null);
  const name = shop?.name ?? null;
  const card = useFreshCardSettings(shopId);
  // "Ready" only once the card offers a reward; until then, choosing one is the first step.
  const hasReward = (card.data?.rewardsOffered ?? 0) > 0;
  const steps = card.data && !hasReward ? [REWARD_STEP, ...NEXT_STEPS] : NEXT_STEPS;
  // Only the owner of the shop named in the address hears it was created (issue 12): anyone else is told plainly.
  const isOwner = Boolean(shops.data?.some((s) => s.id === shopId && s.role === "owner"));
  if (!isOwner) return <NoShopCreated isLoading={shops.isPending || shops.isFetching} />;
  return (
    <div className="mx-auto w-full max-w-xl px-5 pb-12 pt-8">
      <div className="flex flex-col items-center text-center">
        <span className="flex size-16 items-center justify-center rounded-full bg-emerald-100 text-emerald-700 dark:bg-emerald-950 dark:text-emerald-300">
          <svg
            viewBox="0 0 24 24"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.5"
            strokeLinecap="round"
            strokeLinejoin="round"
            className="size-8"
            aria-hidden="true"
          >
            <path d="M4.5 12.5l5 5 10-11" />
          </svg>
        </span>
        <h1 className="mt-4 text-2xl font-bold tracking-tight">
          {name ? `${name} est sur Fidèle !` : "Votre boutique est créée !"}
        </h1>
        {card.data ? (
          <p className="mt-2 text-stone-600 dark:text-stone-400">
            {hasReward
              ? `Votre carte de fidélité est prête : ${card.data.summary}.`
              : `Votre carte de fidélité est créée (${card.data.summary}). Il lui manque une récompense : choisissez-la, c'est la première étape.`}{" "}
            Vous pouvez tout changer à tout moment.
          </p>
        ) : null}
      </div>
      <h2 className="mt-8 text-lg font-semibold">Prochaines étapes</h2>
      <ol className="mt-3 flex flex-col gap-3">
        {steps.map((step, i) => (
          <li key={step.to}>
            <Link
              to={step.to}
              className="flex items-start gap-4 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition hover:border-brand-500 dark:border-stone-800 dark:bg-stone-900"
            >
              <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-brand-50 font-bold text-brand-800 dark:bg-stone-800 dark:text-brand-200">
                {i + 1}
              </span>
              <span className="min-w-0">
                <span className="block font-semibold text-stone-900 dark:text-stone-100">{step.title}</span>
                <span className="mt-0.5 block text-sm text-stone-600 dark:text-stone-400">{step.text}</span>
              </span>
            </Link>
          </li>
        ))}
      </ol>
      <div className="mt-8 flex flex-col gap-3">
        <ButtonLink to="/admin" full>
          Aller au tableau de bord
        </ButtonLink>
        <ButtonLink to="/admin/ma-boutique" variant="secondary" full>
          Compléter ma page publique
        </ButtonLink>
      </div>
    </div>
  );
}

/** /result-boutique opened by someone who did not just create this shop (a shopper, a stale link). */
function NoShopCreated({ isLoading }: { isLoading: boolean }) {
  if (isLoading) return <div className="min-h-[50vh]" aria-busy="true" />;
  return (
    <div className="mx-auto flex w-full max-w-xl flex-col gap-4 px-5 pb-12 pt-8 text-center">
      <h1 className="text-2xl font-bold tracking-tight">Aucune boutique créée ici</h1>
      <p className="text-stone-700 dark:text-stone-300">
        Cette page confirme l'inscription d'une boutique à son propriétaire. Aucune boutique inscrite par votre compte
        ne correspond à ce lien.
      </p>
      <ButtonLink to="/inscription-boutique" full>
        Inscrire ma boutique
      </ButtonLink>
      <ButtonLink to="/" variant="secondary" full>
        Retour à l'accueil
      </ButtonLink>
    </div>
  );
}
