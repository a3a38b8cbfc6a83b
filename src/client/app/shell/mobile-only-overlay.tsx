import { lazy, Suspense, useEffect, useState } from "react";

// The overlay itself is loaded only when a window is too wide: phones never download it.
const MobileOnlyOverlayView = lazy(() => import("./mobile-only-overlay-view.tsx"));

/** SPEC §9: mobile width limit and overlay delay. */
const MOBILE_MAX_WIDTH = 1280;
export const OVERLAY_REMOVAL_DELAY_MS = 15_000;

const isTooWide = (width: number) => width > MOBILE_MAX_WIDTH;

type Timers = { setTimeout: (fn: () => void, ms: number) => unknown; clearTimeout: (id: unknown) => void };

/**
 * How we read SPEC §1 ("On screens wider than 1280 px an overlay covers the app [...]. The overlay is removed after
 * 15 s if the width condition is not met"):
 * - the overlay appears at once whenever the window is wider than 1280 px (at start or on a resize);
 * - once shown, it is not removed the moment the window becomes narrow enough: it is removed 15 s later, and only
 *   if the window is still no wider than 1280 px at that moment. Widening again within those 15 s cancels the
 *   removal (the overlay simply stays); narrowing again starts a new 15 s wait.
 * - a window that is never wider than 1280 px never sees it.
 * Returns a function that stops watching.
 */
export function watchMobileOnly(
  getWidth: () => number,
  onChange: (isShown: boolean) => void,
  subscribeToResize: (listener: () => void) => () => void,
  timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (id) => clearTimeout(id as number) },
): () => void {
  let isShown = isTooWide(getWidth());
  let removal: unknown;
  onChange(isShown);

  const cancelRemoval = () => {
    if (removal !== undefined) timers.clearTimeout(removal);
    removal = undefined;
  };
  const check = () => {
    if (isTooWide(getWidth())) {
      cancelRemoval();
      if (!isShown) {
        isShown = true;
        onChange(true);
      }
      return;
    }
    if (!isShown || removal !== undefined) return;
    removal = timers.setTimeout(() => {
      removal = undefined;
      if (isTooWide(getWidth())) return;
      isShown = false;
      onChange(false);
    }, OVERLAY_REMOVAL_DELAY_MS);
  };
  const unsubscribe = subscribeToResize(check);
  return () => {
    unsubscribe();
    cancelRemoval();
  };
}

function useIsTooWide(): boolean {
  const [isShown, setShown] = useState(() => isTooWide(window.innerWidth));
  useEffect(
    () =>
      watchMobileOnly(
        () => window.innerWidth,
        setShown,
        (listener) => {
          window.addEventListener("resize", listener);
          return () => window.removeEventListener("resize", listener);
        },
      ),
    [],
  );
  return isShown;
}

/** The "mobile only" overlay (SPEC §1): covers the app, which is made inert beneath it. */
export function MobileOnlyOverlay() {
  const isShown = useIsTooWide();

  useEffect(() => {
    const app = document.getElementById("root");
    if (!app || !isShown) return;
    app.inert = true;
    return () => {
      app.inert = false;
    };
  }, [isShown]);

  if (!isShown) return null;
  return (
    <Suspense fallback={null}>
      <MobileOnlyOverlayView />
    </Suspense>
  );
}
