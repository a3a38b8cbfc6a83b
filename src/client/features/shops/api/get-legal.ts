import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

export const getLegal = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].legal.$get({ param: { shopId } })).then((r) => r.legal);

export const legalQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: backofficeKeys.part(shopId, "legal"), queryFn: () => getLegal(shopId) });

export const useLegal = (shopId: string) => useQuery(legalQueryOptions(shopId));
