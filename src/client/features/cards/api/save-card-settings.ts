import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { cardSettingsSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

export const saveCardSettings = (shopId: string, input: z.output<typeof cardSettingsSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].card.$put({ param: { shopId }, json: input })).then((r) => r.card);

/** Saves the card; the answer is the new settings, and the shop's overview (design, mode) follows. */
export function useSaveCardSettings(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof cardSettingsSchema>) => saveCardSettings(shopId, input),
    onSuccess: (card) => {
      queryClient.setQueryData(backofficeKeys.card(shopId), card);
      return queryClient.invalidateQueries({ queryKey: backofficeKeys.overview(shopId) });
    },
  }).mutateAsync;
}
