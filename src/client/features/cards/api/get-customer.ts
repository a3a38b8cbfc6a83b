import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

const getCustomer = (shopId: string, cardId: string) =>
  unwrap(api.backoffice.shops[":shopId"].customers[":cardId"].$get({ param: { shopId, cardId } }));

const customerQueryOptions = (shopId: string, cardId: string) =>
  queryOptions({
    queryKey: cardsKeys.customer(shopId, cardId),
    queryFn: () => getCustomer(shopId, cardId),
  });

export const useCustomer = (shopId: string, cardId: string) => useQuery(customerQueryOptions(shopId, cardId));
