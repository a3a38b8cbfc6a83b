import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

const setRewardActive = (shopId: string, rewardId: string, isActive: boolean) =>
  unwrap(
    api.backoffice.shops[":shopId"].rewards[":rewardId"].active.$patch({
      param: { shopId, rewardId },
      json: { isActive },
    }),
  ).then((r) => r.reward);

export function useSetRewardActive(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ rewardId, isActive }: { rewardId: string; isActive: boolean }) =>
      setRewardActive(shopId, rewardId, isActive),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shopPages() });
      return queryClient.invalidateQueries({ queryKey: rewardsKeys.rewards(shopId) });
    },
  });
}
