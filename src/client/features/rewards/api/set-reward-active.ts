import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { ownerRewardsQueryOptions } from "./list-owner-rewards.ts";

export const setRewardActive = (shopId: string, rewardId: string, isActive: boolean) =>
  unwrap(
    api.backoffice.shops[":shopId"].rewards[":rewardId"].active.$patch({
      param: { shopId, rewardId },
      json: { isActive },
    }),
  ).then((r) => r.reward);

/** Switches a reward on or off for shoppers (PATCH …/active), then reloads the list. */
export function useSetRewardActive(shopId: string) {
  const queryClient = useQueryClient();
  return async (rewardId: string, isActive: boolean) => {
    const reward = await setRewardActive(shopId, rewardId, isActive);
    await queryClient.invalidateQueries({ queryKey: ownerRewardsQueryOptions(shopId).queryKey });
    void queryClient.invalidateQueries({ queryKey: ["shops", "page"] });
    return reward;
  };
}
