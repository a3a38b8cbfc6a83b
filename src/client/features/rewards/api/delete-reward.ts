import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/** DELETE …/rewards/:rewardId: removed, or archived when it was already used ({archived: true}). */
const deleteReward = (shopId: string, rewardId: string) =>
  unwrap(api.backoffice.shops[":shopId"].rewards[":rewardId"].$delete({ param: { shopId, rewardId } }));

export function useDeleteReward(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (rewardId: string) => deleteReward(shopId, rewardId),
    onSuccess: () => {
      // The settings (birthday gift) and VIP levels may have pointed at it.
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shopPages() });
      return queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
    },
  });
}
