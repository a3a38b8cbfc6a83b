import type { ReactNode } from "react";
import { Link, useLocation } from "react-router";
import { ApiError } from "../../lib/api-client.ts";
import { LoadError } from "../errors/load-error.tsx";
import { useCurrentShop } from "../shop/current-shop.ts";
import { ButtonLink } from "../ui/button.tsx";
import { Notice } from "../ui/notice.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { type ShopOverview, useShopOverview } from "./shop-overview.ts";

/** A sibling page shown as a tab: a route, or a view of one (`/admin?vue=boutiques`). */
type FrameTab = { to: string; label: string };

type FrameProps = {
  title: string;
  lead?: ReactNode;
  /** Buttons beside the title. */
  actions?: ReactNode;
  /** The way back; `null` on a home page. The dashboard by default. */
  back?: { to: string; label: string } | null;
  /** Pages that go together (contests and lots, the messages, the console's views), as tabs under the title. */
  tabs?: { label: string; items: readonly FrameTab[] };
  /** A read whose failure makes the whole page an error (a product of another shop: its 404). */
  error?: unknown;
};

/**
 * The scope of a page. `shop`: about the current shop (remembered choice or ?boutique=), shown only once its
 * overview says the person may manage it, and given that overview. `platform`: about no one shop (the console,
 * one's own profile, every shop's customers): the frame alone.
 */
type ShopScope = { scope: "shop"; children: (shop: ShopOverview) => ReactNode };
type PlatformScope = { scope: "platform"; children: ReactNode };

const DASHBOARD = { to: "/admin", label: "Tableau de bord" };

/**
 * The one frame of every back-office page: a way back, the title with its lead and actions, tabs when the page
 * has siblings, then the page. Wide enough for a tablet. A shop page whose shop is not the person's (404), not for
 * their role (403), or a person with no shop at all, gets a page of its own instead, with its own title.
 */
export function BackOfficeFrame(props: FrameProps & (ShopScope | PlatformScope)) {
  if (props.error) return <ErrorPage error={props.error} />;
  if (props.scope === "shop") return <ShopFrame {...props} />;
  return <Chrome {...props}>{props.children}</Chrome>;
}

function ShopFrame({ children, ...frame }: FrameProps & ShopScope) {
  const current = useCurrentShop();
  const overview = useShopOverview(current.shopId);
  let body: ReactNode;
  if (current.isLoading || (current.shopId && overview.isPending)) body = <Skeleton />;
  else if (current.error) body = <LoadError error={current.error} />;
  else if (!current.shopId) return <NoShop />;
  else if (overview.isError) return <ErrorPage error={overview.error} onRetry={() => overview.refetch()} />;
  else if (overview.data) {
    const shop = overview.data;
    body = (
      <>
        {shop.status === "suspended" ? (
          <Notice tone="error">
            <strong>Boutique suspendue.</strong> Vos clients ne peuvent plus rien cumuler.
            {shop.suspendedReason ? ` Motif : ${shop.suspendedReason}` : ""} Contactez-nous pour la réactiver.
          </Notice>
        ) : null}
        {children(shop)}
      </>
    );
  }
  return <Chrome {...frame}>{body}</Chrome>;
}

function Chrome({ title, lead, actions, back = DASHBOARD, tabs, children }: FrameProps & { children: ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-3xl px-4 pb-12 pt-5 sm:px-6">
      {back ? (
        <Link
          to={back.to}
          className="inline-flex min-h-10 items-center gap-1 text-sm font-semibold text-brand-800 dark:text-brand-200"
        >
          <span aria-hidden="true">←</span> {back.label}
        </Link>
      ) : null}
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
          {lead ? <p className="mt-1 text-stone-600 dark:text-stone-400">{lead}</p> : null}
        </div>
        {actions}
      </div>
      {tabs ? <Tabs label={tabs.label} items={tabs.items} /> : null}
      <div className="mt-5 flex flex-col gap-5">{children}</div>
    </div>
  );
}

/** Which tab is the page: same path, and every parameter the tab names (the one naming the most wins). */
function isActive(tab: FrameTab, location: { pathname: string; search: string }, items: readonly FrameTab[]) {
  const matches = (t: FrameTab) => {
    const url = new URL(t.to, "http://x");
    if (url.pathname !== location.pathname) return false;
    const here = new URLSearchParams(location.search);
    return [...url.searchParams].every(([k, v]) => here.get(k) === v);
  };
  const best = items.filter(matches).sort((a, b) => b.to.length - a.to.length)[0];
  return best === tab;
}

function Tabs({ label, items }: { label: string; items: readonly FrameTab[] }) {
  const location = useLocation();
  // A shop named in the address (?boutique=) stays the page's shop from tab to tab.
  const shop = new URLSearchParams(location.search).get("boutique");
  const withShop = (to: string) =>
    shop ? `${to}${to.includes("?") ? "&" : "?"}boutique=${encodeURIComponent(shop)}` : to;
  return (
    <nav aria-label={label} className="mt-4">
      <ul className="grid auto-cols-fr grid-flow-col gap-1 rounded-xl bg-stone-200/70 p-1 dark:bg-stone-800">
        {items.map((tab) => {
          const active = isActive(tab, location, items);
          return (
            <li key={tab.to} className="flex">
              <Link
                to={withShop(tab.to)}
                aria-current={active ? "page" : undefined}
                className={`flex min-h-11 w-full items-center justify-center rounded-lg px-2 py-1 text-center text-sm font-semibold leading-tight ${
                  active
                    ? "bg-white text-brand-900 shadow-sm dark:bg-stone-950 dark:text-brand-100"
                    : "text-stone-700 hover:bg-white/60 dark:text-stone-300 dark:hover:bg-stone-900"
                }`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

/** A page that is not for this person: 404 (another shop's), 403 (not for this role), or a retry. */
function ErrorPage({ error, onRetry }: { error: unknown; onRetry?: () => unknown }) {
  if (error instanceof ApiError && (error.status === 404 || error.status === 403)) {
    const notFound = error.status === 404;
    return (
      <div className="mx-auto flex min-h-[60vh] max-w-md flex-col items-center justify-center gap-4 px-6 text-center">
        <p className="text-6xl font-black text-brand-700 dark:text-brand-200" aria-hidden="true">
          {error.status}
        </p>
        <h1 className="text-2xl font-bold">{notFound ? error.message.replace(/\.$/, "") : "Accès réservé"}</h1>
        <p className="text-stone-700 dark:text-stone-300">
          {notFound ? "Cette page n'existe pas, ou ne concerne pas l'une de vos boutiques." : error.message}
        </p>
        {notFound ? (
          <ButtonLink to="/admin">Mon tableau de bord</ButtonLink>
        ) : (
          <ButtonLink to="/manager">Ouvrir le comptoir</ButtonLink>
        )}
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-md px-5 pt-10">
      <LoadError error={error} onRetry={onRetry} />
    </div>
  );
}

function NoShop() {
  return (
    <div className="mx-auto flex max-w-md flex-col gap-4 px-5 pt-10">
      <h1 className="text-2xl font-bold">Aucune boutique</h1>
      <p className="text-stone-700 dark:text-stone-300">
        Vous ne gérez encore aucune boutique sur Fidèle. Inscrivez la vôtre en quelques minutes : vos clients pourront
        cumuler dès aujourd'hui.
      </p>
      <ButtonLink to="/inscription-boutique">Inscrire ma boutique</ButtonLink>
    </div>
  );
}
