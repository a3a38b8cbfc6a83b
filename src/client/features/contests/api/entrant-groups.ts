import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

/** Before the draw: accounts linked by a device, a network or a mobile number, and whose entries count. */
export const getEntrantGroups = (shopId: string, id: string) =>
  unwrap(api.backoffice.shops[":shopId"].contests[":id"].groups.$get({ param: { shopId, id } }));
export type EntrantGroups = Awaited<ReturnType<typeof getEntrantGroups>>;

export const entrantGroupsQueryOptions = (shopId: string, id: string) =>
  queryOptions({ queryKey: contestsKeys.part(shopId, "groups", id), queryFn: () => getEntrantGroups(shopId, id) });
export const useEntrantGroups = (shopId: string, id: string) => useQuery(entrantGroupsQueryOptions(shopId, id));
