import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { shopPageSchema } from "../../../../domain/schemas/shops.ts";
import { myShopsQueryOptions } from "../../../components/shop/current-shop.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { pageContentQueryOptions } from "./get-page-content.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

export const savePageContent = (shopId: string, input: z.output<typeof shopPageSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].page.$put({ param: { shopId }, json: input })).then((r) => r.page);

/** Saves, then refreshes everything that shows the shop's name or logo. */
export function useSavePageContent(shopId: string) {
  const queryClient = useQueryClient();
  return async (input: z.output<typeof shopPageSchema>) => {
    const page = await savePageContent(shopId, input);
    queryClient.setQueryData(pageContentQueryOptions(shopId).queryKey, page);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: backofficeKeys.part(shopId, "overview") }),
      queryClient.invalidateQueries({ queryKey: backofficeKeys.part(shopId, "card") }),
      queryClient.invalidateQueries({ queryKey: myShopsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
    ]);
    return page;
  };
}
