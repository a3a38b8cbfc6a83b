import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { shopPageSchema } from "../../../../domain/schemas/shops.ts";
import { myShopsQueryOptions } from "../../../components/shop/current-shop.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";
import { shopsKeys } from "./keys.ts";

export const savePageContent = (shopId: string, input: z.output<typeof shopPageSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].page.$put({ param: { shopId }, json: input })).then((r) => r.page);

/** Saves the public page; the name and logo show elsewhere too (overview, card, my shops, me). */
export function useSavePageContent(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof shopPageSchema>) => savePageContent(shopId, input),
    onSuccess: (page) => {
      queryClient.setQueryData(shopsKeys.pageContent(shopId), page);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: backofficeKeys.overview(shopId) }),
        queryClient.invalidateQueries({ queryKey: backofficeKeys.card(shopId) }),
        queryClient.invalidateQueries({ queryKey: myShopsQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      ]);
    },
  }).mutateAsync;
}
