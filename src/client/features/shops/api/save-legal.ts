import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { shopLegalSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

export const saveLegal = (shopId: string, input: z.output<typeof shopLegalSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].legal.$put({ param: { shopId }, json: input })).then((r) => r.legal);

export function useSaveLegal(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof shopLegalSchema>) => saveLegal(shopId, input),
    onSuccess: (legal) => queryClient.setQueryData(shopsKeys.legal(shopId), legal),
  }).mutateAsync;
}
