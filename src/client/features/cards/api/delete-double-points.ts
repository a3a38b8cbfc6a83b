import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { doublePointsQueryOptions } from "./list-double-points.ts";

export const deleteDoublePoints = (shopId: string, periodId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["double-points"][":periodId"].$delete({ param: { shopId, periodId } }));

export function useDeleteDoublePoints(shopId: string) {
  const queryClient = useQueryClient();
  return async (periodId: string) => {
    await deleteDoublePoints(shopId, periodId);
    await queryClient.invalidateQueries({ queryKey: doublePointsQueryOptions(shopId).queryKey });
  };
}
