import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { shopHoursSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

export const saveHours = (shopId: string, input: z.output<typeof shopHoursSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].hours.$put({ param: { shopId }, json: input })).then((r) => r.hours);

export function useSaveHours(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof shopHoursSchema>) => saveHours(shopId, input),
    onSuccess: (hours) => queryClient.setQueryData(shopsKeys.hours(shopId), hours),
  }).mutateAsync;
}
