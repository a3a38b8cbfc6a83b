import { onlineManager, useQuery } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { matchRoute, type RouteMeta } from "../../../domain/routes.ts";
import { startOfflineScans } from "../../features/cards/api/offline-scans-start.ts";
import { meQueryOptions } from "../../lib/me.ts";
import { queryClient } from "../../lib/query-client.ts";
import type { createRouter } from "../router.tsx";
import { setForcedColourMode, startColourMode } from "./colour-mode.tsx";
import { useHeartbeat } from "./heartbeat.ts";
import { captureInstallPrompt, InstallPrompt } from "./install-prompt.tsx";
import { LoadingBar } from "./loading-bar.tsx";
import { MobileOnlyOverlay } from "./mobile-only-overlay.tsx";
import { useSessionUpkeep } from "./session-upkeep.ts";
import { UpdateBanner } from "./update-banner.tsx";

type AppRouter = ReturnType<typeof createRouter>;

/**
 * Before the first render: the colour mode (with the first route's forced mode), the install event, and whether
 * the app starts offline. TanStack Query assumes "online" until an `offline` event; an app opened from the
 * precache without network would otherwise retry the account query for seconds before showing anything. Knowing
 * it is offline, the query waits (paused) and the shell opens at once (app-layout.tsx).
 */
export function startShell() {
  onlineManager.setOnline(navigator.onLine);
  // Visits scanned with no network go out when it returns (and at start).
  startOfflineScans(queryClient);
  startColourMode(matchRoute(window.location.pathname)?.colorMode);
  captureInstallPrompt();
}

function startServiceWorker() {
  // The worker exists only in a production build (vite-plugin-pwa writes dist/client/sw.js).
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () => void import("./service-worker.ts").then((module) => module.registerServiceWorker());
  // Once the page has loaded and the browser is idle: the registration, and the precaching it starts, never compete
  // with the first screen for the network or the main thread.
  const whenIdle = () =>
    "requestIdleCallback" in window ? requestIdleCallback(register, { timeout: 3_000 }) : setTimeout(register, 1_000);
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}

/**
 * The installable-app layer around every screen (issue 3, items 5–8): the mobile-only overlay, the update banner,
 * the install card, the navigation loading bar, a route's forced colour mode, session upkeep and the last_seen
 * heartbeat. It sits beside the router and follows it through `router.subscribe`.
 */
export function Shell({ router }: { router: AppRouter }) {
  const routerState = useSyncExternalStore(router.subscribe, () => router.state);
  const forcedColourMode = (routerState.matches.at(-1)?.route.handle as RouteMeta | undefined)?.colorMode;
  const { data: me } = useQuery(meQueryOptions());

  useEffect(() => setForcedColourMode(forcedColourMode), [forcedColourMode]);
  // After the first screen (the router is initialised once the first page's code is in).
  useEffect(() => {
    if (routerState.initialized) startServiceWorker();
  }, [routerState.initialized]);
  useSessionUpkeep();
  useHeartbeat(Boolean(me));

  return (
    <>
      <LoadingBar isNavigating={routerState.navigation.state !== "idle"} />
      <UpdateBanner />
      <InstallPrompt />
      <MobileOnlyOverlay />
    </>
  );
}
