import type { ReactNode } from "react";
import { Link } from "react-router";
import { ApiError } from "../../lib/api-client.ts";
import { BackofficeError, PageSkeleton } from "../../components/back-office/back-office-page.tsx";

/**
 * The frame of the console pages (journal, connectés, sessions): they are about people, not about one shop, so
 * they do not need a current shop the way BackofficePage does — the platform admin with no shop of their own
 * reaches them too.
 */
export function ConsolePage({
  title,
  lead,
  actions,
  isHome = false,
  children,
}: {
  title: string;
  isHome?: boolean;
  lead?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-12 pt-5 sm:px-6">
      {isHome ? null : (
        <Link
          to="/admin"
          className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
        >
          <span aria-hidden="true">←</span> Tableau de bord
        </Link>
      )}
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

/** A query's three states in a console page. */
export function QueryState<T>({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined; refetch: () => unknown };
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <PageSkeleton />;
  if (query.isError || query.data === undefined) {
    return (
      <BackofficeError
        error={query.error ?? new ApiError(500, { code: "INTERNAL", message: "Erreur" })}
        onRetry={() => query.refetch()}
      />
    );
  }
  return <>{children(query.data)}</>;
}
