import { queryOptions, useQuery } from "@tanstack/react-query";
import { REWARDS_PER_SHOP_MAX } from "../../../../domain/loyalty/rewards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/**
 * GET …/rewards: the shop's catalogue in the owner's order (with counts), and the card's mode. The page size is
 * the catalogue's cap (REWARDS_PER_SHOP_MAX), so one page is the whole catalogue: reordering needs every reward.
 */
const listOwnerRewards = (shopId: string) =>
  unwrap(
    api.backoffice.shops[":shopId"].rewards.$get({
      param: { shopId },
      query: { limit: String(REWARDS_PER_SHOP_MAX), offset: "0" },
    }),
  );

const ownerRewardsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: rewardsKeys.rewards(shopId), queryFn: () => listOwnerRewards(shopId) });

export const useOwnerRewards = (shopId: string) => useQuery(ownerRewardsQueryOptions(shopId));

export type OwnerRewards = Awaited<ReturnType<typeof listOwnerRewards>>;
export type OwnerReward = OwnerRewards["rewards"][number];
