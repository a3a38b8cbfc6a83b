import { useQueryClient } from "@tanstack/react-query";
import type { RewardValues } from "../../../../domain/schemas/rewards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

export const createReward = (shopId: string, input: RewardValues) =>
  unwrap(api.backoffice.shops[":shopId"].rewards.$post({ param: { shopId }, json: input })).then((r) => r.reward);

export const updateReward = (shopId: string, rewardId: string, input: RewardValues) =>
  unwrap(api.backoffice.shops[":shopId"].rewards[":rewardId"].$put({ param: { shopId, rewardId }, json: input })).then(
    (r) => r.reward,
  );

/** Creates (no id) or updates a reward, then refreshes the catalogue and the shop's public page. */
export function useSaveReward(shopId: string) {
  const queryClient = useQueryClient();
  return async (rewardId: string | null, input: RewardValues) => {
    const reward = rewardId ? await updateReward(shopId, rewardId, input) : await createReward(shopId, input);
    await queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
    void queryClient.invalidateQueries({ queryKey: ["shops", "page"] });
    return reward;
  };
}
