import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useLayoutEffect, useRef, useState } from "react";
import { Navigate, Outlet, useLocation, useMatches } from "react-router";
import { checkAccess, LAYOUT_DEFAULTS, type RouteMeta } from "../../domain/routes.ts";
import { ForbiddenView } from "../components/errors/error-view.tsx";
import { meQueryOptions } from "../lib/me.ts";
import { Header, Navbar, useSidebar } from "./bars.tsx";
import { type PageTitle, PageTitleContext } from "./page-title.ts";
import { TabBar } from "./tab-bar.tsx";
import { viewerOf } from "../lib/viewer.ts";

/** The back-office bars, never part of a shopper's download; router.tsx fetches them with a back-office page. */
export const loadBackOfficeBars = () => import("./back-office-bars.tsx");
const AdminBar = lazy(() => loadBackOfficeBars().then((m) => ({ default: m.AdminBar })));
const Sidebar = lazy(() => loadBackOfficeBars().then((m) => ({ default: m.Sidebar })));
// Only for the platform admin, on back-office pages.
const OperatorNotice = lazy(() => import("./operator-notice.tsx").then((m) => ({ default: m.OperatorNotice })));
// The live stream and the weekly push check exist only for someone signed in: loaded when they are.
const MessagesLive = lazy(() =>
  import("../features/messages/components/messages-live.tsx").then((m) => ({ default: m.MessagesLive })),
);
// Needed only by a guarded page opened offline (then it comes from the service worker's precache).
const OfflineNotice = lazy(() => import("./shell/offline-notice.tsx").then((m) => ({ default: m.OfflineNotice })));

/** The frame of every screen: guard, then the bars the route's metadata asks for. */
export function AppLayout() {
  const matches = useMatches();
  const location = useLocation();
  const meta = { ...LAYOUT_DEFAULTS, ...(matches.at(-1)?.handle as RouteMeta | undefined) };
  const meQuery = useQuery(meQueryOptions());
  const sidebar = useSidebar();
  // The first screen appears without a transition: fading it in from transparent would hold back its first
  // meaningful paint (Largest Contentful Paint ignores text while it is transparent).
  const firstLocationKey = useRef(location.key);
  const transition = location.key === firstLocationKey.current ? "none" : meta.transition;

  // A page may name itself over its route's title while it is on screen (usePageTitle).
  const [pageTitle, setPageTitle] = useState<PageTitle>(null);
  const title = pageTitle?.path === location.pathname ? pageTitle.title : meta.title;

  // A layout effect runs before the pages' effects, so an error page's own title (RouteError) wins.
  useLayoutEffect(() => {
    if (title) document.title = `${title} · Fidèle`;
  }, [title]);

  // At start the user is fetched, then loading stops (SPEC §4). Offline the fetch waits for the network
  // (fetchStatus "paused"): the shell opens anyway, and a guarded page says it needs the network.
  const isOffline = meQuery.isPending && meQuery.fetchStatus === "paused";
  if (meQuery.isPending && !isOffline) {
    return <div className="min-h-screen" aria-busy="true" />;
  }
  const me = meQuery.data ?? null;
  const guard = meta.guard ?? "public";
  // SPEC §4: the guard redirects to /login if there is no user or an error occurs (not when the account kept on
  // this phone stands in for a server out of reach: offline-cache.ts).
  const access = meQuery.isError && !me && guard !== "public" ? "login" : checkAccess(guard, viewerOf(me));
  if (access === "login" && !isOffline) {
    const redirect = encodeURIComponent(location.pathname + location.search);
    return <Navigate to={`/login?redirect=${redirect}`} replace />;
  }

  const showFooter = Boolean(me) && meta.showFooter;
  return (
    <PageTitleContext.Provider value={setPageTitle}>
      <div className={`min-h-screen ${showFooter ? "pb-20" : ""}`}>
        {meta.showAdminbar ? (
          <Suspense fallback={<div className="sticky top-0 z-20 h-14 bg-brand-900" />}>
            <AdminBar me={me} onMenu={meta.showSidebar ? sidebar.openSidebar : undefined} />
          </Suspense>
        ) : null}
        {meta.showHeader ? <Header me={me} /> : null}
        {meta.showNavbar && !meta.showHeader && !meta.showAdminbar ? <Navbar title={title ?? ""} /> : null}
        {meta.showSidebar && sidebar.open ? (
          <Suspense fallback={null}>
            <Sidebar open onClose={sidebar.closeSidebar} me={me} />
          </Suspense>
        ) : null}
        {meta.showAdminbar && me?.user.isAdmin ? (
          <Suspense fallback={null}>
            <OperatorNotice />
          </Suspense>
        ) : null}
        <main key={location.pathname} className={transition === "none" ? "" : `page-${transition}`}>
          {access === "login" ? (
            <Suspense fallback={null}>
              <OfflineNotice />
            </Suspense>
          ) : access === "forbidden" ? (
            <ForbiddenView />
          ) : (
            <Outlet />
          )}
        </main>
        {showFooter ? <TabBar isSignedIn={Boolean(me)} /> : null}
        {me ? (
          <Suspense fallback={null}>
            <MessagesLive />
          </Suspense>
        ) : null}
      </div>
    </PageTitleContext.Provider>
  );
}
