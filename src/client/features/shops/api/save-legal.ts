import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { shopLegalSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { legalQueryOptions } from "./get-legal.ts";

export const saveLegal = (shopId: string, input: z.output<typeof shopLegalSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].legal.$put({ param: { shopId }, json: input })).then((r) => r.legal);

export function useSaveLegal(shopId: string) {
  const queryClient = useQueryClient();
  return async (input: z.output<typeof shopLegalSchema>) => {
    const legal = await saveLegal(shopId, input);
    queryClient.setQueryData(legalQueryOptions(shopId).queryKey, legal);
    return legal;
  };
}
