import type { ReactNode } from "react";
import { Link } from "react-router";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { ApiError } from "../../../lib/api-client.ts";

/**
 * The frame of the contests' back-office pages: the current shop (remembered choice or ?boutique=), a way back,
 * the title, then the page. To be replaced by the unified back-office shell when it lands.
 */
export function ContestsFrame({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: (shopId: string) => ReactNode;
}) {
  const current = useCurrentShop();
  let body: ReactNode;
  if (current.isLoading) body = <p aria-busy="true">Chargement…</p>;
  else if (current.error) body = <LoadError error={current.error} />;
  else if (!current.shopId)
    body = (
      <div className="flex flex-col items-start gap-3">
        <p>Vous ne gérez encore aucune boutique sur Fidèle.</p>
        <ButtonLink to="/inscription-boutique">Inscrire ma boutique</ButtonLink>
      </div>
    );
  else body = children(current.shopId);
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-12 pt-5 sm:px-6">
      <Link
        to="/admin"
        className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
      >
        <span aria-hidden="true">←</span> Tableau de bord
      </Link>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      {lead ? <p className="mt-1 text-stone-700 dark:text-stone-300">{lead}</p> : null}
      <nav aria-label="Jeux et lots" className="mt-3 flex flex-wrap gap-2 text-sm font-semibold">
        <Link
          className="rounded-full bg-brand-50 px-3 py-2 text-brand-900 dark:bg-stone-800 dark:text-brand-100"
          to="/admin/jeux-concours"
        >
          Jeux concours
        </Link>
        <Link
          className="rounded-full bg-brand-50 px-3 py-2 text-brand-900 dark:bg-stone-800 dark:text-brand-100"
          to="/admin/gestion-des-lots"
        >
          Stock de lots
        </Link>
        <Link
          className="rounded-full bg-brand-50 px-3 py-2 text-brand-900 dark:bg-stone-800 dark:text-brand-100"
          to="/admin/gestion-des-lots-2"
        >
          Lots gagnés
        </Link>
      </nav>
      <div className="mt-5 flex flex-col gap-5">{body}</div>
    </div>
  );
}

export function LoadError({ error }: { error: unknown }) {
  return (
    <Notice tone="error">{error instanceof ApiError ? error.message : "Une erreur inattendue est survenue."}</Notice>
  );
}

export const errorText = (e: unknown) =>
  e instanceof ApiError ? e.message : "Une erreur inattendue est survenue. Réessayez.";

export function Section({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const id = `${title.replace(/\W+/g, "-").toLowerCase()}-title`;
  return (
    <section
      aria-labelledby={id}
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5 dark:border-stone-800 dark:bg-stone-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={id} className="text-lg font-semibold">
          {title}
        </h2>
        {actions}
      </div>
      <div className="mt-3">{children}</div>
    </section>
  );
}
