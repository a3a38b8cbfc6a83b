import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { RewardValues } from "../../../../domain/schemas/rewards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

const createReward = (shopId: string, input: RewardValues) =>
  unwrap(api.backoffice.shops[":shopId"].rewards.$post({ param: { shopId }, json: input })).then((r) => r.reward);

const updateReward = (shopId: string, rewardId: string, input: RewardValues) =>
  unwrap(api.backoffice.shops[":shopId"].rewards[":rewardId"].$put({ param: { shopId, rewardId }, json: input })).then(
    (r) => r.reward,
  );

/** Creates (no id) or updates a reward, then refreshes the catalogue and the shop's public page. */
export function useSaveReward(shopId: string) {
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation({
    mutationFn: ({ rewardId, input }: { rewardId: string | null; input: RewardValues }) =>
      rewardId ? updateReward(shopId, rewardId, input) : createReward(shopId, input),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shopPages() });
      return queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
    },
  });
  return (rewardId: string | null, input: RewardValues) => mutateAsync({ rewardId, input });
}
