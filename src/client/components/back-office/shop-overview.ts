import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../lib/api-client.ts";
import { backofficeKeys } from "./shop-keys.ts";

const getShopOverview = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].$get({ param: { shopId } })).then((r) => r.shop);

const shopOverviewQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: backofficeKeys.overview(shopId), queryFn: () => getShopOverview(shopId) });

export const useShopOverview = (shopId: string | null) =>
  useQuery({ ...shopOverviewQueryOptions(shopId ?? ""), enabled: Boolean(shopId) });

export type ShopOverview = Awaited<ReturnType<typeof getShopOverview>>;
