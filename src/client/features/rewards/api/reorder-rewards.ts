import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import type { OwnerRewards } from "./list-owner-rewards.ts";
import { rewardsKeys } from "./keys.ts";

const reorderRewards = (shopId: string, ids: string[]) =>
  unwrap(api.backoffice.shops[":shopId"]["rewards-order"].$put({ param: { shopId }, json: { ids } }));

/** The new order shows at once (optimistic), then the server's order is read back, whatever the answer. */
export function useReorderRewards(shopId: string) {
  const queryClient = useQueryClient();
  const key = rewardsKeys.rewards(shopId);
  return useMutation({
    mutationFn: (ids: string[]) => reorderRewards(shopId, ids),
    onMutate: (ids) => {
      const before = queryClient.getQueryData<OwnerRewards>(key);
      if (!before) return;
      const byId = new Map(before.rewards.map((r) => [r.id, r]));
      queryClient.setQueryData<OwnerRewards>(key, {
        ...before,
        rewards: ids.map((id) => byId.get(id)).filter((r): r is OwnerRewards["rewards"][number] => Boolean(r)),
      });
    },
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shopPages() });
      return queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
