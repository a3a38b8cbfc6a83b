import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/** GET …/rewards/:rewardId: one reward to edit, with its photo as a data URL. */
const getOwnerReward = (shopId: string, rewardId: string) =>
  unwrap(api.backoffice.shops[":shopId"].rewards[":rewardId"].$get({ param: { shopId, rewardId } })).then(
    (r) => r.reward,
  );

const ownerRewardQueryOptions = (shopId: string, rewardId: string) =>
  queryOptions({
    queryKey: rewardsKeys.reward(shopId, rewardId),
    queryFn: () => getOwnerReward(shopId, rewardId),
    staleTime: 0,
  });

export const useOwnerReward = (shopId: string, rewardId: string | null) =>
  useQuery({ ...ownerRewardQueryOptions(shopId, rewardId ?? ""), enabled: Boolean(rewardId) });

export type OwnerRewardDetail = Awaited<ReturnType<typeof getOwnerReward>>;
