import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { rewardSettingsSchema } from "../../../../domain/schemas/rewards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useSaveSettings } from "../../../lib/use-mutation-fn.ts";
import { rewardsKeys } from "./keys.ts";

/** GET …/reward-settings: how long a pending redemption holds, and the birthday gift. */
const getRewardSettings = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["reward-settings"].$get({ param: { shopId } })).then((r) => r.settings);

const rewardSettingsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: rewardsKeys.settings(shopId), queryFn: () => getRewardSettings(shopId) });

export const useRewardSettings = (shopId: string) => useQuery(rewardSettingsQueryOptions(shopId));

export type RewardSettings = Awaited<ReturnType<typeof getRewardSettings>>;

const saveRewardSettings = (shopId: string, input: z.output<typeof rewardSettingsSchema>) =>
  unwrap(api.backoffice.shops[":shopId"]["reward-settings"].$put({ param: { shopId }, json: input })).then(
    (r) => r.settings,
  );

export const useSaveRewardSettings = (shopId: string) =>
  useSaveSettings(rewardsKeys.settings(shopId), (input: z.output<typeof rewardSettingsSchema>) =>
    saveRewardSettings(shopId, input),
  );
