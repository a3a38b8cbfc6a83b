import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { type OwnerRewards, ownerRewardsQueryOptions } from "./list-owner-rewards.ts";

export const reorderRewards = (shopId: string, ids: string[]) =>
  unwrap(api.backoffice.shops[":shopId"]["rewards-order"].$put({ param: { shopId }, json: { ids } }));

/** PUT …/rewards-order with the whole new order; the list moves at once and is reloaded after. */
export function useReorderRewards(shopId: string) {
  const queryClient = useQueryClient();
  const key = ownerRewardsQueryOptions(shopId).queryKey;
  return async (ids: string[]) => {
    const before = queryClient.getQueryData<OwnerRewards>(key);
    if (before) {
      const byId = new Map(before.rewards.map((r) => [r.id, r]));
      queryClient.setQueryData<OwnerRewards>(key, {
        ...before,
        rewards: ids.map((id) => byId.get(id)).filter((r): r is OwnerRewards["rewards"][number] => Boolean(r)),
      });
    }
    try {
      await reorderRewards(shopId, ids);
    } finally {
      await queryClient.invalidateQueries({ queryKey: key });
      void queryClient.invalidateQueries({ queryKey: ["shops", "page"] });
    }
  };
}
