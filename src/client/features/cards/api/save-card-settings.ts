import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { cardSettingsSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardSettingsQueryOptions } from "../../../components/back-office/card-settings.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

export const saveCardSettings = (shopId: string, input: z.output<typeof cardSettingsSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].card.$put({ param: { shopId }, json: input })).then((r) => r.card);

export function useSaveCardSettings(shopId: string) {
  const queryClient = useQueryClient();
  return async (input: z.output<typeof cardSettingsSchema>) => {
    const card = await saveCardSettings(shopId, input);
    queryClient.setQueryData(cardSettingsQueryOptions(shopId).queryKey, card);
    await queryClient.invalidateQueries({ queryKey: backofficeKeys.part(shopId, "overview") });
    return card;
  };
}
