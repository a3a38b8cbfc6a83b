import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

/** Before the draw: accounts linked by a device, a network or a mobile number, and whose entries count. */
const getEntrantGroups = (shopId: string, id: string) =>
  unwrap(api.backoffice.shops[":shopId"].contests[":id"].groups.$get({ param: { shopId, id } }));

const entrantGroupsQueryOptions = (shopId: string, id: string) =>
  queryOptions({ queryKey: contestsKeys.groups(shopId, id), queryFn: () => getEntrantGroups(shopId, id) });
export const useEntrantGroups = (shopId: string, id: string) => useQuery(entrantGroupsQueryOptions(shopId, id));
