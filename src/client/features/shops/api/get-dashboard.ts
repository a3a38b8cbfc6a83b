import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const getDashboard = (shopId: string, days: number) =>
  unwrap(api.backoffice.shops[":shopId"].dashboard.$get({ param: { shopId }, query: { days: String(days) } }));

const dashboardQueryOptions = (shopId: string, days: number) =>
  queryOptions({ queryKey: shopsKeys.dashboard(shopId, days), queryFn: () => getDashboard(shopId, days) });

export const useDashboard = (shopId: string | null, days: number) =>
  useQuery({ ...dashboardQueryOptions(shopId ?? "", days), enabled: Boolean(shopId) });

export type Dashboard = Awaited<ReturnType<typeof getDashboard>>;
