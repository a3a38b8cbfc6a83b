import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { shopHoursSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { hoursQueryOptions } from "./get-hours.ts";

export const saveHours = (shopId: string, input: z.output<typeof shopHoursSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].hours.$put({ param: { shopId }, json: input })).then((r) => r.hours);

export function useSaveHours(shopId: string) {
  const queryClient = useQueryClient();
  return async (input: z.output<typeof shopHoursSchema>) => {
    const hours = await saveHours(shopId, input);
    queryClient.setQueryData(hoursQueryOptions(shopId).queryKey, hours);
    return hours;
  };
}
