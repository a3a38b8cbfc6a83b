import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

export const getDashboard = (shopId: string, days: number) =>
  unwrap(api.backoffice.shops[":shopId"].dashboard.$get({ param: { shopId }, query: { days: String(days) } }));

export const dashboardQueryOptions = (shopId: string, days: number) =>
  queryOptions({ queryKey: shopsKeys.dashboard(shopId, days), queryFn: () => getDashboard(shopId, days) });

export const useDashboard = (shopId: string, days: number) => useQuery(dashboardQueryOptions(shopId, days));

export type Dashboard = Awaited<ReturnType<typeof getDashboard>>;
