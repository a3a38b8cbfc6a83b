import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { vipTiersSchema } from "../../../../domain/schemas/rewards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/** GET …/vip-tiers: the shop's VIP ladder, lowest level first. */
export const getVipTiers = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["vip-tiers"].$get({ param: { shopId } })).then((r) => r.tiers);

export const vipTiersQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: rewardsKeys.vipTiers(shopId), queryFn: () => getVipTiers(shopId) });

export const useVipTiers = (shopId: string) => useQuery(vipTiersQueryOptions(shopId));

export type VipTier = Awaited<ReturnType<typeof getVipTiers>>[number];

export const saveVipTiers = (shopId: string, input: z.output<typeof vipTiersSchema>) =>
  unwrap(api.backoffice.shops[":shopId"]["vip-tiers"].$put({ param: { shopId }, json: input })).then((r) => r.tiers);

export function useSaveVipTiers(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof vipTiersSchema>) => saveVipTiers(shopId, input),
    onSuccess: (tiers) => queryClient.setQueryData(rewardsKeys.vipTiers(shopId), tiers),
  }).mutateAsync;
}
