import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const getHours = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].hours.$get({ param: { shopId } })).then((r) => r.hours);

const hoursQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: shopsKeys.hours(shopId), queryFn: () => getHours(shopId) });

export const useHours = (shopId: string) => useQuery(hoursQueryOptions(shopId));
