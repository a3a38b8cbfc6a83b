import type { ReactNode } from "react";
import { Link } from "react-router";
import { type MyShop, useCurrentShop } from "../shop/current-shop.ts";
import { ButtonLink } from "../ui/button.tsx";
import { Notice } from "../ui/notice.tsx";
import { ApiError } from "../../lib/api-client.ts";

export function Skeleton({ label = "Chargement…" }: { label?: string }) {
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <span className="sr-only">{label}</span>
      <div className="h-24 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
      <div className="h-40 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
    </div>
  );
}

/** A failed back-office call: the API's French message (404 another shop, 403 not for this role), and a retry. */
export function LoadError({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  const message = error instanceof ApiError ? error.message : "Une erreur inattendue est survenue.";
  return (
    <div className="flex flex-col items-start gap-3">
      <Notice tone="error">{message}</Notice>
      {error instanceof ApiError && error.status === 403 ? (
        <ButtonLink to="/validate-reward" variant="secondary">
          Valider une récompense au comptoir
        </ButtonLink>
      ) : onRetry ? (
        <button
          type="button"
          onClick={onRetry}
          className="min-h-11 font-semibold text-brand-800 underline dark:text-brand-200"
        >
          Réessayer
        </button>
      ) : null}
    </div>
  );
}

/** A titled block of a rewards back-office page. */
export function Panel({
  title,
  lead,
  children,
  id,
  actions,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  id?: string;
  actions?: ReactNode;
}) {
  const headingId = `${id ?? title.replace(/\W+/g, "-").toLowerCase()}-title`;
  return (
    <section
      id={id}
      aria-labelledby={headingId}
      className="scroll-mt-20 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5 dark:border-stone-800 dark:bg-stone-900"
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

/**
 * The frame of the rewards back-office pages (the back-office's own frame belongs to its feature): the current
 * shop (remembered choice or ?boutique=), a way back, the title, then the page once the shop is known.
 */
export function AdminFrame({
  title,
  lead,
  back = { to: "/admin", label: "Tableau de bord" },
  actions,
  children,
}: {
  title: string;
  lead?: ReactNode;
  back?: { to: string; label: string };
  actions?: ReactNode;
  children: (shop: { id: string; entry: MyShop | null }) => ReactNode;
}) {
  const current = useCurrentShop();
  let body: ReactNode;
  if (current.isLoading) body = <Skeleton />;
  else if (current.error) body = <LoadError error={current.error} />;
  else if (!current.shopId) {
    body = (
      <div className="flex flex-col items-start gap-3">
        <p className="text-stone-700 dark:text-stone-300">
          Vous ne gérez encore aucune boutique sur Fidèle. Inscrivez la vôtre : vos clients pourront collecter leurs
          points et utiliser vos récompenses dès aujourd'hui.
        </p>
        <ButtonLink to="/inscription-boutique">Inscrire ma boutique</ButtonLink>
      </div>
    );
  } else body = children({ id: current.shopId, entry: current.shop });
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-12 pt-5 sm:px-6">
      <Link
        to={back.to}
        className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
      >
        <span aria-hidden="true">←</span> {back.label}
      </Link>
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
