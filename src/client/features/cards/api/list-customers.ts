import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { CUSTOMER_SORTS } from "../../../../domain/schemas/cards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

export type CustomersFilter = {
  q: string;
  sort: (typeof CUSTOMER_SORTS)[number];
  order: "asc" | "desc";
  limit: number;
};

/** The query string of the list and of its CSV export. */
export const customersQuery = (f: CustomersFilter) => ({
  ...(f.q ? { q: f.q } : {}),
  sort: f.sort,
  order: f.order,
  limit: String(f.limit),
  offset: "0",
});

const listCustomers = (shopId: string, f: CustomersFilter) =>
  unwrap(api.backoffice.shops[":shopId"].customers.$get({ param: { shopId }, query: customersQuery(f) }));

const customersQueryOptions = (shopId: string, f: CustomersFilter) =>
  queryOptions({
    queryKey: cardsKeys.customers(shopId, f),
    queryFn: () => listCustomers(shopId, f),
    placeholderData: keepPreviousData,
  });

export const useCustomers = (shopId: string, f: CustomersFilter) => useQuery(customersQueryOptions(shopId, f));
