import { formatMoment } from "../../../domain/format.ts";

type Movement = { kind: string; label: string; amountLabel: string; at: string };

/**
 * A bundle's or a gift card's last movements (« Utilisé au comptoir −3 unités, aujourd'hui à 14 h 05 »): what the
 * holder and the counter read when a balance surprises them. Folded under « Historique ».
 */
export function HoldingHistory({ history, testId }: { history: Movement[]; testId?: string }) {
  if (history.length === 0) return null;
  return (
    <details className="group rounded-xl bg-stone-50 px-3 py-2 dark:bg-stone-800/60" data-testid={testId}>
      <summary className="cursor-pointer text-sm font-semibold text-stone-800 dark:text-stone-200">
        Historique<span className="sr-only"> des derniers mouvements</span>
      </summary>
      <ol className="mt-2 flex flex-col gap-2">
        {history.map((m) => (
          <li key={`${m.at}-${m.kind}-${m.amountLabel}`} className="flex items-baseline justify-between gap-3 text-sm">
            <span>
              <span className="block text-stone-900 dark:text-stone-100">{m.label}</span>
              <span className="block text-xs text-stone-700 dark:text-stone-300">{formatMoment(m.at)}</span>
            </span>
            <span
              className={`shrink-0 font-semibold tabular-nums ${m.amountLabel.startsWith("−") ? "text-stone-900 dark:text-stone-100" : "text-emerald-800 dark:text-emerald-300"}`}
            >
              {m.amountLabel}
            </span>
          </li>
        ))}
      </ol>
    </details>
  );
}
