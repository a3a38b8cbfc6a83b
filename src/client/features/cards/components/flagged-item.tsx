import type { ReactNode } from "react";

/** A card of a feed (a visit, a correction): amber-edged, with « À vérifier : … » on top, when something is flagged. */
export function FlaggedItem({
  flagged,
  labels,
  children,
}: {
  flagged: boolean;
  labels: readonly string[];
  children: ReactNode;
}) {
  return (
    <li
      className={`rounded-2xl border bg-white p-4 shadow-sm dark:bg-stone-900 ${
        flagged ? "border-amber-400 border-l-8 dark:border-amber-600" : "border-stone-200 dark:border-stone-800"
      }`}
    >
      {flagged ? (
        <p className="mb-2 flex items-start gap-1.5 text-sm font-semibold text-amber-900 dark:text-amber-200">
          <span aria-hidden="true">⚠</span>
          <span>À vérifier : {labels.join(" · ")}</span>
        </p>
      ) : null}
      {children}
    </li>
  );
}
