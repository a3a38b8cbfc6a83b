import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../lib/api-client.ts";
import { backofficeKeys } from "./shop-keys.ts";

const getCardSettings = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].card.$get({ param: { shopId } })).then((r) => r.card);

export const cardSettingsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: backofficeKeys.card(shopId), queryFn: () => getCardSettings(shopId) });

export const useCardSettings = (shopId: string) => useQuery(cardSettingsQueryOptions(shopId));

export type CardSettings = Awaited<ReturnType<typeof getCardSettings>>;
