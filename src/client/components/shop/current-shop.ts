import { queryOptions, useQuery } from "@tanstack/react-query";
import { useCallback, useSyncExternalStore } from "react";
import { useSearchParams } from "react-router";
import { api, unwrap } from "../../lib/api-client.ts";
import { meQueryOptions } from "../../lib/me.ts";

/**
 * Which shop the back-office and the counter act on. A person may belong to
 * several shops (GET /api/shops/mine): the choice is remembered in localStorage;
 * `?boutique={shopId}` in the URL wins (links in e-mails, sharing a page).
 */
const CURRENT_SHOP_STORAGE_KEY = "fidele.current-shop";
const PARAM = "boutique";

const getMyShops = () => unwrap(api.shops.mine.$get()).then((r) => r.shops);

export const myShopsQueryOptions = () =>
  queryOptions({ queryKey: ["shops", "mine"], queryFn: getMyShops, staleTime: 60_000 });

export type MyShop = Awaited<ReturnType<typeof getMyShops>>[number];

const listeners = new Set<() => void>();

function readStored(): string | null {
  try {
    return window.localStorage.getItem(CURRENT_SHOP_STORAGE_KEY);
  } catch {
    return null;
  }
}

/** Remembers the chosen shop for every open screen (and the next visit). */
export function rememberShop(shopId: string) {
  try {
    window.localStorage.setItem(CURRENT_SHOP_STORAGE_KEY, shopId);
  } catch {
    // Private mode without storage: the choice lasts as long as the page.
  }
  memory = shopId;
  for (const listener of listeners) listener();
}

let memory: string | null = null;
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === CURRENT_SHOP_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
};
const snapshot = () => readStored() ?? memory;

const MANAGES = new Set(["owner", "admin"]);

/** The default shop: one the person manages, else the first one. */
export function pickShop<S extends { id: string; role: string }>(shops: readonly S[], wanted: string | null): S | null {
  return shops.find((s) => s.id === wanted) ?? shops.find((s) => MANAGES.has(s.role)) ?? shops[0] ?? null;
}

/**
 * `shopId` is what pages ask the API about: the URL's shop when there is one (even
 * a shop that is not the person's: the API then answers "introuvable"), else the
 * remembered one, else the default. `shop` is its entry in my shops, if any.
 */
export function useCurrentShop(options: { enabled?: boolean } = {}) {
  const enabled = options.enabled ?? true;
  const query = useQuery({ ...myShopsQueryOptions(), enabled });
  const me = useQuery({ ...meQueryOptions(), enabled });
  const [params, setParams] = useSearchParams();
  const stored = useSyncExternalStore(subscribe, snapshot, () => null);
  const fromUrl = params.get(PARAM);
  const shops = query.data ?? [];
  // Until my shops arrive, the account's memberships (loaded before any page) name the same shops: a page asks for
  // its shop's data at once, beside my shops rather than after them (issue 25 row 11).
  const known = query.data ?? me.data?.memberships.map((m) => ({ id: m.shopId, role: m.role })) ?? [];
  const remembered = pickShop(known, stored);
  const shopId = fromUrl ?? remembered?.id ?? null;
  const shop = shops.find((s) => s.id === shopId) ?? null;

  const select = useCallback(
    (id: string) => {
      rememberShop(id);
      if (params.has(PARAM)) {
        const next = new URLSearchParams(params);
        next.delete(PARAM);
        setParams(next, { replace: true });
      }
    },
    [params, setParams],
  );

  return { shops, shop, shopId, isLoading: enabled && query.isPending, error: query.error, select };
}
