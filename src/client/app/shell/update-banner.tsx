import { lazy, Suspense, useSyncExternalStore } from "react";

/**
 * The update banner (SPEC §2, §4): shown when a new service worker is installed and waiting. The registration
 * (service-worker.ts, loaded lazily) offers the update here with the function that activates the waiting worker;
 * "Recharger" calls it, and the page reloads once the new worker controls it.
 */
let applyUpdate: (() => void) | null = null;
const listeners = new Set<() => void>();

export function offerUpdate(apply: () => void) {
  applyUpdate = apply;
  for (const listener of listeners) listener();
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

// The banner itself is loaded only when an update is waiting.
const UpdateBannerView = lazy(() => import("./update-banner-view.tsx"));

export function UpdateBanner() {
  const apply = useSyncExternalStore(
    subscribe,
    () => applyUpdate,
    () => null,
  );
  if (!apply) return null;
  return (
    <Suspense fallback={null}>
      <UpdateBannerView onReload={apply} />
    </Suspense>
  );
}
