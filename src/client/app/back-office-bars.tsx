import { Link, useLocation } from "react-router";
import { type MenuRole, menuFor } from "../components/back-office/menu.ts";
import { Icon, PathIcon } from "../components/icons.tsx";
import { useCurrentShop } from "../components/shop/current-shop.ts";
import { ShopSwitcher } from "../components/shop/shop-switcher.tsx";
import type { Me } from "../lib/me.ts";

/*
 * The shop back-office's bars, in a chunk of their own: app-layout.tsx loads this module lazily (and router.tsx
 * fetches it together with a back-office page), so a shopper's pages never download the back-office code.
 */

/** Back-office bar: the shop's name, the menu, and a switch to the shopper side; a banner landmark. */
export function AdminBar({ me, onMenu }: { me: Me | null; onMenu?: () => void }) {
  // The shop the page acts on (remembered choice or ?boutique=); a switcher when there are several.
  const current = useCurrentShop({ enabled: Boolean(me) });
  const shop = me?.memberships.find((m) => m.shopId === current.shopId) ?? me?.memberships[0];
  return (
    <header className="sticky top-0 z-20 bg-brand-900 text-white">
      <div className="mx-auto flex h-14 max-w-3xl items-center gap-2 px-2">
        {onMenu ? (
          <button
            type="button"
            onClick={onMenu}
            className="flex size-11 items-center justify-center rounded-full hover:bg-brand-800"
            aria-label="Ouvrir le menu"
          >
            <Icon name="menu" />
          </button>
        ) : null}
        {current.shops.length > 1 ? (
          <ShopSwitcher shops={current.shops} value={current.shopId} onChange={current.select} />
        ) : (
          <div className="min-w-0 flex-1">
            <p className="text-xs uppercase tracking-wide text-brand-100">
              {shop || !me?.user.isAdmin ? "Espace commerçant" : "Plateforme Fidèle"}
            </p>
            <p className="truncate text-sm font-semibold">
              {shop?.shopName ?? (me?.user.isAdmin ? "Administration" : "")}
            </p>
          </div>
        )}
        <Link to="/" className="rounded-lg bg-white/10 px-3 py-2 text-sm font-semibold hover:bg-white/20">
          Côté client
        </Link>
      </div>
    </header>
  );
}

/** The page an entry leads to is this one: same path, same view of it (the console's ?vue=). */
function isHere(to: string, location: { pathname: string; search: string }) {
  const url = new URL(to, "http://x");
  return (
    url.pathname === location.pathname &&
    url.searchParams.get("vue") === new URLSearchParams(location.search).get("vue")
  );
}

/**
 * The roles the menu shows (issue 25 rows 4 and 5): the platform's for its admin, and the current shop's (owners and
 * managers all of it, staff the counter's tools), when the person belongs to a shop.
 */
function useMenuRoles(me: Me | null): MenuRole[] {
  const current = useCurrentShop({ enabled: Boolean(me) });
  const roles: MenuRole[] = me?.user.isAdmin ? ["platform"] : [];
  if (!me?.memberships.length) return roles;
  const role = current.shop?.role ?? me.memberships.find((m) => m.shopId === current.shopId)?.role;
  const manages = role
    ? role === "owner" || role === "admin"
    : me.memberships.some((m) => m.role === "owner" || m.role === "admin");
  return [...roles, manages ? "owner" : "staff"];
}

/** Back-office menu, as a drawer on a phone: grouped, one entry per page, what the person's roles may open. */
export function Sidebar({ open, onClose, me }: { open: boolean; onClose: () => void; me: Me | null }) {
  const roles = useMenuRoles(me);
  const location = useLocation();
  const title = roles.includes("owner") || roles.includes("staff") ? "Menu commerçant" : "Menu de la plateforme";
  if (!open) return null;
  return (
    <div className="fixed inset-0 z-40" role="dialog" aria-modal="true" aria-label={title}>
      <button type="button" className="absolute inset-0 bg-black/40" aria-label="Fermer le menu" onClick={onClose} />
      <nav className="absolute inset-y-0 left-0 w-72 overflow-y-auto bg-white p-4 shadow-xl dark:bg-stone-900">
        <div className="mb-2 flex items-center justify-between">
          <p className="font-bold">{title}</p>
          <button
            type="button"
            onClick={onClose}
            className="flex size-11 items-center justify-center rounded-full"
            aria-label="Fermer le menu"
          >
            <Icon name="close" />
          </button>
        </div>
        {menuFor(roles).map((group) => (
          <section key={group.title} aria-label={group.title} className="mt-3">
            <h2 className="px-3 pb-1 text-xs font-semibold uppercase tracking-wide text-stone-500 dark:text-stone-400">
              {group.title}
            </h2>
            <ul className="flex flex-col gap-0.5">
              {group.links.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    onClick={onClose}
                    aria-current={isHere(link.to, location) ? "page" : undefined}
                    className={`flex min-h-11 items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium ${isHere(link.to, location) ? "bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200" : "text-stone-800 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"}`}
                  >
                    <PathIcon d={link.icon} className="size-5 shrink-0 text-brand-700 dark:text-brand-300" />
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </nav>
    </div>
  );
}
