import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const getLegal = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].legal.$get({ param: { shopId } })).then((r) => r.legal);

const legalQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: shopsKeys.legal(shopId), queryFn: () => getLegal(shopId) });

export const useLegal = (shopId: string) => useQuery(legalQueryOptions(shopId));
