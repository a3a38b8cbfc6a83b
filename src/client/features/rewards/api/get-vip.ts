import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/** GET /api/rewards/vip: for each of my cards, the shop's levels, mine, and the gifts I can claim. */
const getVip = () => unwrap(api.rewards.vip.$get());

const vipQueryOptions = () => queryOptions({ queryKey: rewardsKeys.vip(), queryFn: getVip });

export const useVip = () => useQuery(vipQueryOptions());

type VipData = Awaited<ReturnType<typeof getVip>>;
export type VipCard = VipData["cards"][number];
export type VipGift = VipCard["gifts"][number];
