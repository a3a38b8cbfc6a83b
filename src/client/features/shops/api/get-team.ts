import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const getTeam = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].team.$get({ param: { shopId } }));

const teamQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: shopsKeys.team(shopId), queryFn: () => getTeam(shopId) });

export const useTeam = (shopId: string) => useQuery(teamQueryOptions(shopId));
