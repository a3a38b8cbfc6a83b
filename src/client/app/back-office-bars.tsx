import { Link, NavLink } from "react-router";
import { ROUTES } from "../../domain/routes.ts";
import { Icon } from "../components/icons.tsx";
import { useCurrentShop } from "../components/shop/current-shop.ts";
import { ShopSwitcher } from "../components/shop/shop-switcher.tsx";
import type { Me } from "../lib/me.ts";

/*
 * The shop back-office's bars, in a chunk of their own: app-layout.tsx loads this module lazily (and router.tsx
 * fetches it together with a back-office page), so a shopper's pages never download the back-office code.
 */

/** Back-office bar: the shop's name, the menu, and a switch to the shopper side. */
export function AdminBar({ me, onMenu }: { me: Me | null; onMenu?: () => void }) {
  // The shop the page acts on (remembered choice or ?boutique=); a switcher when there are several.
  const current = useCurrentShop({ enabled: Boolean(me) });
  const shop = me?.memberships.find((m) => m.shopId === current.shopId) ?? me?.memberships[0];
  return (
    <div className="sticky top-0 z-20 bg-brand-900 text-white">
      <div className="mx-auto flex h-14 max-w-3xl items-center gap-2 px-2">
        {onMenu ? (
          <button
            type="button"
            onClick={onMenu}
            className="flex size-11 items-center justify-center rounded-full hover:bg-brand-800"
            aria-label="Ouvrir le menu commerçant"
          >
            <Icon name="menu" />
          </button>
        ) : null}
        {current.shops.length > 1 ? (
          <ShopSwitcher shops={current.shops} value={current.shopId} onChange={current.select} />
        ) : (
          <div className="min-w-0 flex-1">
            <p className="text-xs uppercase tracking-wide text-brand-100">Espace commerçant</p>
            <p className="truncate text-sm font-semibold">
              {shop?.shopName ?? (me?.user.isAdmin ? "Administration" : "")}
            </p>
          </div>
        )}
        <Link to="/" className="rounded-lg bg-white/10 px-3 py-2 text-sm font-semibold hover:bg-white/20">
          Côté client
        </Link>
      </div>
    </div>
  );
}

const BACK_OFFICE_LINKS = ROUTES.filter((r) => r.path.startsWith("/admin") && !r.path.includes(":"));

/** Back-office menu, as a drawer on a phone. */
export function Sidebar({ open, onClose, isAdmin }: { open: boolean; onClose: () => void; isAdmin: boolean }) {
  if (!open) return null;
  const links = BACK_OFFICE_LINKS.filter((r) => r.guard !== "admin" || isAdmin);
  return (
    <div className="fixed inset-0 z-40" role="dialog" aria-modal="true" aria-label="Menu commerçant">
      <button type="button" className="absolute inset-0 bg-black/40" aria-label="Fermer le menu" onClick={onClose} />
      <nav className="absolute inset-y-0 left-0 w-72 overflow-y-auto bg-white p-4 shadow-xl dark:bg-stone-900">
        <div className="mb-3 flex items-center justify-between">
          <p className="font-bold">Menu commerçant</p>
          <button
            type="button"
            onClick={onClose}
            className="flex size-11 items-center justify-center rounded-full"
            aria-label="Fermer le menu"
          >
            <Icon name="close" />
          </button>
        </div>
        <ul className="flex flex-col gap-1">
          {links.map((r) => (
            <li key={r.path}>
              <NavLink
                to={r.path}
                end
                onClick={onClose}
                className={({ isActive }) =>
                  `block rounded-lg px-3 py-2.5 text-sm font-medium ${isActive ? "bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200" : "text-stone-800 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800"}`
                }
              >
                {r.title}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
    </div>
  );
}
