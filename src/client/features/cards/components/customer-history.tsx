import { useCustomer } from "../api/get-customer.ts";
import { formatAmount, formatDateTime } from "../../../../domain/format.ts";

/** A customer's last ledger entries (scans, bonuses, rewards, corrections), newest first. */
export function CustomerHistory({
  shopId,
  cardId,
  mode,
}: {
  shopId: string;
  cardId: string;
  mode: "stamps" | "points";
}) {
  const customer = useCustomer(shopId, cardId);
  if (customer.isPending)
    return <p className="text-sm text-stone-600 dark:text-stone-400">Chargement de l'historique…</p>;
  if (customer.isError) return <p className="text-sm font-medium text-red-700 dark:text-red-400">{customer.error.message}</p>;
  const entries = customer.data.entries;
  if (entries.length === 0)
    return <p className="text-sm text-stone-600 dark:text-stone-400">Aucun mouvement pour l'instant.</p>;
  return (
    <ol className="flex flex-col divide-y divide-stone-100 text-sm dark:divide-stone-800">
      {entries.slice(0, 20).map((e) => (
        <li key={e.id} className="flex items-start justify-between gap-3 py-2">
          <span className="min-w-0">
            <span className="block font-medium">{e.kindLabel}</span>
            <span className="block text-xs text-stone-600 dark:text-stone-400">
              {formatDateTime(e.createdAt)}
              {e.author ? ` · par ${e.author}` : ""}
              {e.reason ? ` · ${e.reason}` : ""}
            </span>
          </span>
          <span
            className={`shrink-0 font-semibold tabular-nums ${e.delta < 0 ? "text-red-700 dark:text-red-400" : "text-brand-800 dark:text-brand-200"}`}
          >
            {e.kind === "validation" ? (
              "Remise"
            ) : (
              <>
                {e.delta > 0 ? "+" : ""}
                {formatAmount(mode, e.delta)}
              </>
            )}
          </span>
        </li>
      ))}
    </ol>
  );
}
