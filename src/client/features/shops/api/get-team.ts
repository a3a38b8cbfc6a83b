import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

export const getTeam = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].team.$get({ param: { shopId } }));

export const teamQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: backofficeKeys.part(shopId, "team"), queryFn: () => getTeam(shopId) });

export const useTeam = (shopId: string) => useQuery(teamQueryOptions(shopId));
