import { useState } from "react";
import { Link } from "react-router";
import { CUSTOMER_SORTS } from "../../../../domain/schemas/cards.ts";
import { Button } from "../../../components/ui/button.tsx";
import { backofficeFileUrl } from "../../../lib/download-file.ts";
import type { ShopOverview } from "../../../components/back-office/shop-overview.ts";
import { type CustomersFilter, customersQuery, useCustomers } from "../api/list-customers.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { CustomerHistory } from "../components/customer-history.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { CustomerFilters } from "../components/customer-filters.tsx";
import { labelOptions, SelectField } from "../../../components/ui/select-field.tsx";
import { useDebounced } from "../../../lib/use-debounced.ts";
import { formatAmount, formatDateMedium, personName, plural } from "../../../../domain/format.ts";

const SORT_LABELS: Record<(typeof CUSTOMER_SORTS)[number], string> = {
  lastVisit: "Dernier passage",
  points: "Solde",
  lifetime: "Total cumulé",
  visits: "Passages",
  name: "Nom",
  since: "Client depuis",
};
const PAGE = 50;

function CustomersBody({ shop }: { shop: ShopOverview }) {
  const [search, setSearch] = useState("");
  const [sort, setSort] = useState<(typeof CUSTOMER_SORTS)[number]>("lastVisit");
  const [order, setOrder] = useState<"asc" | "desc">("desc");
  const [limit, setLimit] = useState(PAGE);
  const [openCards, setOpenCards] = useState<Set<string>>(() => new Set());
  const q = useDebounced(search.trim());
  const filter: CustomersFilter = { q, sort, order, limit };
  const customers = useCustomers(shop.id, filter);
  const { limit: _limit, offset: _offset, ...exportQuery } = customersQuery(filter);

  return (
    <>
      <CustomerFilters
        search={search}
        onSearch={(next) => {
          setSearch(next);
          setLimit(PAGE);
        }}
        placeholder="Nom, prénom ou e-mail"
      >
        <div className="flex gap-2">
          <SelectField
            label="Trier par"
            className="flex-1"
            value={sort}
            onChange={(e) => {
              const next = e.target.value as typeof sort;
              setSort(next);
              setOrder(next === "name" ? "asc" : "desc");
            }}
            options={labelOptions(CUSTOMER_SORTS, SORT_LABELS)}
          />
          <button
            type="button"
            onClick={() => setOrder((o) => (o === "asc" ? "desc" : "asc"))}
            className="mt-auto flex min-h-12 min-w-12 items-center justify-center rounded-xl border border-stone-300 px-3 text-sm font-semibold dark:border-stone-700"
            aria-label={order === "asc" ? "Ordre croissant (changer)" : "Ordre décroissant (changer)"}
          >
            {order === "asc" ? "↑" : "↓"}
          </button>
        </div>
      </CustomerFilters>

      {customers.isPending ? (
        <Skeleton />
      ) : customers.isError ? (
        <LoadError error={customers.error} onRetry={() => customers.refetch()} />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="font-semibold" aria-live="polite">
              {customers.data.totalIsCapped ? "Plus de " : ""}
              {plural(customers.data.total, "client", "clients")}
              {q ? ` pour « ${q} »` : ""}
            </p>
            <DownloadButton url={backofficeFileUrl(shop.id, "customers.csv", exportQuery)} fallbackName="clients.csv">
              Exporter en CSV
            </DownloadButton>
          </div>
          {customers.data.customers.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-stone-300 p-6 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300">
              {q
                ? "Aucun client ne correspond à cette recherche."
                : "Pas encore de client : ils apparaissent ici dès leur premier passage."}
            </div>
          ) : (
            <ul className="flex flex-col gap-2" aria-label="Clients">
              {customers.data.customers.map((c) => (
                <li
                  key={c.cardId}
                  className="flex flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:grid sm:grid-cols-[minmax(0,1fr)_8rem_7rem_11rem] sm:items-center sm:gap-4 dark:border-stone-800 dark:bg-stone-900"
                >
                  <div className="flex items-start justify-between gap-3 sm:contents">
                    <div className="min-w-0">
                      <p className="truncate font-semibold">
                        {c.userId ? (
                          <Link to={`/profile/${c.userId}`} className="underline-offset-2 hover:underline">
                            {personName(c)}
                          </Link>
                        ) : (
                          "Compte supprimé"
                        )}
                      </p>
                      {c.email && personName(c) !== c.email ? (
                        <p className="truncate text-sm text-stone-600 dark:text-stone-400">{c.email}</p>
                      ) : null}
                    </div>
                    <p className="shrink-0 text-right font-bold tabular-nums text-brand-800 sm:text-left dark:text-brand-200">
                      {formatAmount(shop.mode, c.balance)}
                      <span className="block text-xs font-normal text-stone-600 dark:text-stone-400">
                        {formatAmount(shop.mode, c.lifetime)} au total
                      </span>
                    </p>
                  </div>
                  <div className="flex items-end justify-between gap-3 border-t border-stone-100 pt-2 text-sm sm:contents dark:border-stone-800">
                    <p className="whitespace-nowrap text-stone-700 dark:text-stone-300">
                      {plural(c.visits, "passage", "passages")}
                    </p>
                    <p className="text-right text-stone-700 sm:text-left dark:text-stone-300">
                      {c.lastVisitAt ? `Dernière visite : ${formatDateMedium(c.lastVisitAt)}` : "Aucun passage"}
                      <span className="block text-xs text-stone-600 dark:text-stone-400">
                        Client depuis le {formatDateMedium(c.since)}
                      </span>
                    </p>
                  </div>
                  <details
                    className="group sm:col-span-4"
                    onToggle={(e) => {
                      const isOpen = e.currentTarget.open;
                      setOpenCards((set) => {
                        const next = new Set(set);
                        if (isOpen) next.add(c.cardId);
                        else next.delete(c.cardId);
                        return next;
                      });
                    }}
                  >
                    <summary className="flex min-h-10 cursor-pointer list-none items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200">
                      <span aria-hidden="true" className="text-lg leading-none transition group-open:rotate-90">
                        ›
                      </span>
                      Historique<span className="sr-only"> de {personName(c)}</span>
                    </summary>
                    {openCards.has(c.cardId) ? (
                      <CustomerHistory shopId={shop.id} cardId={c.cardId} mode={shop.mode} />
                    ) : null}
                  </details>
                </li>
              ))}
            </ul>
          )}
          {customers.data.total > customers.data.customers.length ? (
            <Button
              variant="secondary"
              onClick={() => setLimit((l) => Math.min(200, l + PAGE))}
              disabled={limit >= 200}
              isLoading={customers.isFetching}
            >
              {limit >= 200 ? "Affinez la recherche ou exportez en CSV pour tout voir" : "Voir plus de clients"}
            </Button>
          ) : null}
        </>
      )}
    </>
  );
}

/** /admin/liste-clients: the shop's customers, searchable and sortable, with a CSV export. */
export default function CustomersPage() {
  return (
    <BackOfficeFrame scope="shop" title="Clients" lead="Vos clients, leurs soldes et leurs passages.">
      {(shop) => <CustomersBody shop={shop} />}
    </BackOfficeFrame>
  );
}
