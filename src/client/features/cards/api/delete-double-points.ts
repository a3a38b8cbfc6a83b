import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

const deleteDoublePoints = (shopId: string, periodId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["double-points"][":periodId"].$delete({ param: { shopId, periodId } }));

export function useDeleteDoublePoints(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (periodId: string) => deleteDoublePoints(shopId, periodId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cardsKeys.doublePoints(shopId) }),
  });
}
