import type { ReactNode } from "react";
import { Link } from "react-router";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError } from "../../../lib/api-client.ts";

/** A failed call: the API's French message. */
export function LoadError({ error }: { error: unknown }) {
  return (
    <Notice tone="error">{error instanceof ApiError ? error.message : "Une erreur inattendue est survenue."}</Notice>
  );
}

export function Loading() {
  return (
    <div aria-busy="true" className="flex flex-col gap-3">
      <span className="sr-only">Chargement…</span>
      <div className="h-24 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
    </div>
  );
}

/** The frame of the messages back-office pages: a way back, the title, then the page (for the current shop, when `shop`). */
export function MessagesFrame({
  title,
  lead,
  actions,
  children,
}: {
  title: string;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-12 pt-5 sm:px-6">
      <Link
        to="/admin"
        className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
      >
        <span aria-hidden="true">←</span> Tableau de bord
      </Link>
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {lead ? <p className="mt-1 text-stone-600 dark:text-stone-400">{lead}</p> : null}
        </div>
        {actions}
      </div>
      <div className="mt-5 flex flex-col gap-5">{children}</div>
    </div>
  );
}

/** Renders its children with the current shop's id, or says what is missing. */
export function WithShop({ children }: { children: (shopId: string) => ReactNode }) {
  const current = useCurrentShop();
  if (current.isLoading) return <Loading />;
  if (current.error) return <LoadError error={current.error} />;
  if (!current.shopId) {
    return (
      <div className="flex flex-col items-start gap-3">
        <p>Vous ne gérez encore aucune boutique sur Fidèle.</p>
        <ButtonLink to="/inscription-boutique">Inscrire ma boutique</ButtonLink>
      </div>
    );
  }
  return <>{children(current.shopId)}</>;
}
