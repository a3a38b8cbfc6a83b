import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

const listDoublePoints = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["double-points"].$get({ param: { shopId } })).then((r) => r.periods);

const doublePointsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: cardsKeys.doublePoints(shopId), queryFn: () => listDoublePoints(shopId) });

export const useDoublePoints = (shopId: string) => useQuery(doublePointsQueryOptions(shopId));

export type DoublePointsPeriod = Awaited<ReturnType<typeof listDoublePoints>>[number];
