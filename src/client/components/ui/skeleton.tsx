import { onlineManager } from "@tanstack/react-query";
import { useSyncExternalStore } from "react";

const HEIGHTS = ["h-24", "h-40"];

const subscribe = (listener: () => void) => onlineManager.subscribe(() => listener());
const isOnline = () => onlineManager.isOnline();

/**
 * What is being loaded, as grey blocks (one for a part of a page, three for a page), named for screen readers.
 * With no network, what is loading waits for it (the queries pause): the blocks would stay forever, so they give
 * way to « Hors connexion » until the network returns (issue 25 row 15), in this one place for every page.
 */
export function Skeleton({ blocks = 3, label = "Chargement…" }: { blocks?: number; label?: string }) {
  const online = useSyncExternalStore(subscribe, isOnline, () => true);
  if (!online) {
    return (
      <p
        role="status"
        className="rounded-2xl border border-dashed border-stone-300 p-4 text-stone-700 dark:border-stone-700 dark:text-stone-300"
      >
        <strong>Hors connexion.</strong> Cette partie s'affichera dès le retour du réseau.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-4" aria-busy="true">
      <span className="sr-only">{label}</span>
      {Array.from({ length: blocks }, (_, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: fixed blocks that never move.
          key={i}
          className={`${HEIGHTS[i % 2]} animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800`}
        />
      ))}
    </div>
  );
}
