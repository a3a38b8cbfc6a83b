import type { ReactNode } from "react";
import { Link } from "react-router";
import { useCurrentShop } from "../shop/current-shop.ts";
import { ButtonLink } from "../ui/button.tsx";
import { Notice } from "../ui/notice.tsx";
import { ApiError } from "../../lib/api-client.ts";
import { type ShopOverview, useShopOverview } from "./shop-overview.ts";

/** The shop a back-office page works on: its id and its overview (name, status, role, design). */
export function useBackofficeShop() {
  const current = useCurrentShop();
  const overview = useShopOverview(current.shopId);
  return { current, overview };
}

export function PageSkeleton({ label = "Chargement…" }: { label?: string }) {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <span className="sr-only">{label}</span>
      <div className="h-24 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
      <div className="h-40 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
      <div className="h-24 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
    </div>
  );
}

/** A failed back-office call as a page: 404 (another shop), 403 (not for this role), or a retry. */
export function BackofficeError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (error instanceof ApiError && error.status === 404) {
    return (
      <div className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
        <p className="text-6xl font-black text-brand-700 dark:text-brand-200" aria-hidden="true">
          404
        </p>
        <h1 className="text-2xl font-bold">{error.message.replace(/\.$/, "")}</h1>
        <p className="text-stone-700 dark:text-stone-300">
          Cette page n'existe pas, ou ne concerne pas l'une de vos boutiques.
        </p>
        <ButtonLink to="/admin">Mon tableau de bord</ButtonLink>
      </div>
    );
  }
  if (error instanceof ApiError && error.status === 403) {
    return (
      <div className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
        <p className="text-6xl font-black text-brand-700 dark:text-brand-200" aria-hidden="true">
          403
        </p>
        <h1 className="text-2xl font-bold">Accès réservé</h1>
        <p className="text-stone-700 dark:text-stone-300">{error.message}</p>
        <ButtonLink to="/manager">Ouvrir le comptoir</ButtonLink>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-5 pt-10">
      <Notice tone="error">{error instanceof ApiError ? error.message : "Une erreur inattendue est survenue."}</Notice>
      {onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="mt-4 min-h-11 font-semibold text-brand-800 underline dark:text-brand-200"
        >
          Réessayer
        </button>
      ) : null}
    </div>
  );
}

function NoShop() {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-5 pt-10">
      <h1 className="text-2xl font-bold">Aucune boutique</h1>
      <p className="text-stone-700 dark:text-stone-300">
        Vous ne gérez encore aucune boutique sur Fidèle. Inscrivez la vôtre en quelques minutes : vos clients pourront
        collecter leurs points dès aujourd'hui.
      </p>
      <ButtonLink to="/inscription-boutique">Inscrire ma boutique</ButtonLink>
    </div>
  );
}

/**
 * The one frame of the back-office pages: it finds the current shop (remembered choice or ?boutique=), loads its
 * overview, and shows the page only when the shop is one the person may manage (otherwise the API's 404 or 403,
 * as a page). A way back (the dashboard unless told), the title, then the page. Wide enough for a tablet.
 */
export function BackofficePage({
  title,
  lead,
  isHome = false,
  back = { to: "/admin", label: "Tableau de bord" },
  actions,
  children,
}: {
  title: string;
  lead?: ReactNode;
  isHome?: boolean;
  back?: { to: string; label: string };
  actions?: ReactNode;
  children: (shop: ShopOverview) => ReactNode;
}) {
  const { current, overview } = useBackofficeShop();
  let body: ReactNode;
  if (current.isLoading || (current.shopId && overview.isPending)) {
    body = <PageSkeleton />;
  } else if (!current.shopId) {
    return <NoShop />;
  } else if (overview.isError) {
    return <BackofficeError error={overview.error} onRetry={() => overview.refetch()} />;
  } else if (overview.data) {
    body = (
      <>
        {overview.data.status === "suspended" ? (
          <Notice tone="error">
            <strong>Boutique suspendue.</strong> Vos clients ne peuvent plus collecter de points.
            {overview.data.suspendedReason ? ` Motif : ${overview.data.suspendedReason}` : ""} Contactez-nous pour la
            réactiver.
          </Notice>
        ) : null}
        {children(overview.data)}
      </>
    );
  }
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-12 pt-5 sm:px-6">
      {isHome ? null : (
        <Link
          to={back.to}
          className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
        >
          <span aria-hidden="true">←</span> {back.label}
        </Link>
      )}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {lead ? <p className="mt-1 text-stone-600 dark:text-stone-400">{lead}</p> : null}
        </div>
        {actions}
      </div>
      <div className="mt-5 flex flex-col gap-5">{body}</div>
    </div>
  );
}

/** A titled block of a back-office page, named by its heading; `id` makes it a target (#affiche), `actions` sit
 * beside the title. */
export function Section({
  title,
  lead,
  children,
  id,
  actions,
  className = "",
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  id?: string;
  actions?: ReactNode;
  className?: string;
}) {
  const headingId = `${id ?? title.replace(/\W+/g, "-").toLowerCase()}-title`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className={`scroll-mt-20 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5 dark:border-stone-800 dark:bg-stone-900 ${className}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={headingId} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      {lead ? <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{lead}</p> : null}
      <div className="mt-4">{children}</div>
    </section>
  );
}
