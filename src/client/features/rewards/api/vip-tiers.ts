import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { vipTiersSchema } from "../../../../domain/schemas/rewards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useSaveSettings } from "../../../lib/use-mutation-fn.ts";
import { rewardsKeys } from "./keys.ts";

/** GET …/vip-tiers: the shop's VIP ladder, lowest level first. */
const getVipTiers = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["vip-tiers"].$get({ param: { shopId } })).then((r) => r.tiers);

const vipTiersQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: rewardsKeys.vipTiers(shopId), queryFn: () => getVipTiers(shopId) });

export const useVipTiers = (shopId: string) => useQuery(vipTiersQueryOptions(shopId));

export type VipTier = Awaited<ReturnType<typeof getVipTiers>>[number];

const saveVipTiers = (shopId: string, input: z.output<typeof vipTiersSchema>) =>
  unwrap(api.backoffice.shops[":shopId"]["vip-tiers"].$put({ param: { shopId }, json: input })).then((r) => r.tiers);

export const useSaveVipTiers = (shopId: string) =>
  useSaveSettings(rewardsKeys.vipTiers(shopId), (input: z.output<typeof vipTiersSchema>) =>
    saveVipTiers(shopId, input),
  );
