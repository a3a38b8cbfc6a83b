import { infiniteQueryOptions } from "@tanstack/react-query";
import type { ShopCategory } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const SHOPS_PAGE_SIZE = 20;

type ShopFilters = { q?: string; category?: ShopCategory; lat?: number; lng?: number };

const query = (filters: ShopFilters, offset: number) => ({
  limit: String(SHOPS_PAGE_SIZE),
  offset: String(offset),
  ...(filters.q ? { q: filters.q } : {}),
  ...(filters.category ? { category: filters.category } : {}),
  ...(filters.lat !== undefined && filters.lng !== undefined ? { lat: filters.lat, lng: filters.lng } : {}),
});

/** GET /api/shops: active shops by name, city, category or postal code; "Voir plus" pages by offset. */
const searchShops = (filters: ShopFilters, offset: number) => unwrap(api.shops.$get({ query: query(filters, offset) }));

/** GET /api/shops/nearby: within 30 km sorted by distance with a position, else all by name. */
const nearbyShops = (filters: ShopFilters, offset: number) => unwrap(api.shops.nearby.$get({ query: query(filters, offset) }));

type ShopsAnswer = Awaited<ReturnType<typeof searchShops>>;
export type ShopSummary = ShopsAnswer["shops"][number];

const pageOptions = (key: string, fetcher: typeof searchShops, filters: ShopFilters) =>
  infiniteQueryOptions({
    queryKey: shopsKeys.search(key, filters),
    queryFn: ({ pageParam }) => fetcher(filters, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last: ShopsAnswer, pages: ShopsAnswer[]) => (last.hasMore ? pages.length * SHOPS_PAGE_SIZE : undefined),
    staleTime: 60_000,
  });

export const searchShopsQueryOptions = (filters: ShopFilters) => pageOptions("search", searchShops, filters);
export const nearbyShopsQueryOptions = (filters: ShopFilters) => pageOptions("nearby", nearbyShops, filters);
