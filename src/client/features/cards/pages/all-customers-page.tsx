import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { Link } from "react-router";
import { formatDateMedium, formatNumber, personName, plural } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { CustomerFilters } from "../components/customer-filters.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "../api/keys.ts";
import { useDebounced } from "../../../lib/use-debounced.ts";

const SORTS = {
  lastVisit: "Dernier passage",
  name: "Nom",
  shop: "Boutique",
  balance: "Solde",
  visits: "Passages",
} as const;
type Sort = keyof typeof SORTS;
const PAGE = 50;

/** /admin/liste-totale-clients: the customers of every shop the owner owns (the platform admin: all shops). */
export default function AllCustomersPage() {
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<Sort>("lastVisit");
  const [limit, setLimit] = useState(PAGE);
  const q = useDebounced(search.trim());
  const query = { sort, limit: String(limit), offset: "0", ...(q ? { q } : {}) };
  const list = useQuery({
    queryKey: cardsKeys.allCustomers({ q, sort, limit }),
    queryFn: () => unwrap(api.backoffice.customers.$get({ query })),
    placeholderData: keepPreviousData,
  });
  const exportUrl = `/api/backoffice/customers/export.csv?${new URLSearchParams({ sort, ...(q ? { q } : {}) })}`;

  return (
    <BackOfficeFrame
      scope="platform"
      title="Tous les clients"
      lead="Les clients de toutes vos boutiques, en une liste."
    >
      <CustomerFilters
        search={search}
        onSearch={(next) => {
          setSearch(next);
          setLimit(PAGE);
        }}
        placeholder="Nom, e-mail ou boutique"
      >
        <SelectField
          label="Trier par"
          value={sort}
          onValue={(v) => setSort(v as Sort)}
          options={(Object.keys(SORTS) as Sort[]).map((s) => ({ value: s, label: SORTS[s] }))}
        />
      </CustomerFilters>
      {list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : list.isPending ? (
        <Skeleton blocks={2} />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="font-semibold">
              {list.data.totalIsCapped ? "Plus de " : ""}
              {plural(list.data.total, "client", "clients")}
            </p>
            <DownloadButton url={exportUrl} fallbackName="tous-les-clients.csv">
              Exporter en CSV
            </DownloadButton>
          </div>
          {list.data.customers.length === 0 ? (
            <p className="rounded-2xl border border-dashed border-stone-300 p-6 text-center text-stone-600 dark:border-stone-700 dark:text-stone-400">
              {q ? "Aucun client ne correspond à cette recherche." : "Pas encore de client."}
            </p>
          ) : (
            <ul className="flex flex-col gap-2" aria-label="Clients">
              {list.data.customers.map((c) => (
                <li
                  key={c.cardId}
                  className="flex items-start justify-between gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900"
                >
                  <div className="min-w-0">
                    <Link
                      to={`/profile/${c.userId}`}
                      className="block truncate font-semibold underline-offset-2 hover:underline"
                    >
                      {personName(c)}
                    </Link>
                    <p className="truncate text-sm text-stone-600 dark:text-stone-400">{c.email}</p>
                    <p className="text-sm text-stone-700 dark:text-stone-300">{c.shopName}</p>
                  </div>
                  <p className="shrink-0 text-right text-sm">
                    <span className="block text-base font-bold tabular-nums">{formatNumber(c.balance)}</span>
                    {plural(c.visits, "passage", "passages")}
                    <span className="block text-stone-600 dark:text-stone-400">
                      {c.lastVisitAt ? formatDateMedium(c.lastVisitAt) : "Aucun passage"}
                    </span>
                  </p>
                </li>
              ))}
            </ul>
          )}
          {list.data.total > list.data.customers.length ? (
            <Button variant="secondary" isLoading={list.isFetching} onClick={() => setLimit((l) => l + PAGE)}>
              Afficher plus
            </Button>
          ) : null}
        </>
      )}
    </BackOfficeFrame>
  );
}
