import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/**
 * Query keys of rewards. The shopper's side lives under ["rewards"] and ["redemptions"]; the back-office's under
 * ["backoffice", shopId, …] like every back-office page, so switching shop or validating a reward refreshes it.
 */
export const rewardsKeys = {
  page: (slug: string) => ["rewards", "page", slug] as const,
  vip: () => ["rewards", "vip"] as const,
  redemption: (id: string) => ["redemptions", id] as const,
  shop: backofficeKeys.shop,
  rewards: (shopId: string) => backofficeKeys.part(shopId, "rewards"),
  reward: (shopId: string, rewardId: string) => backofficeKeys.part(shopId, "reward", rewardId),
  redemptions: (shopId: string, status: unknown, limit: number) =>
    backofficeKeys.part(shopId, "redemptions", status, limit),
  vipTiers: (shopId: string) => backofficeKeys.part(shopId, "vip-tiers"),
  settings: (shopId: string) => backofficeKeys.part(shopId, "reward-settings"),
  /** The shops' public pages (their rewards section), named by prefix: another feature's key. */
  shopPages: () => ["shops", "page"] as const,
};

/**
 * What a change of points makes out of date elsewhere in the app: my cards (and their offline copy), shop pages
 * (the rewards section), the reward pages, my activity. Keys of other features, named here by their prefix only.
 */
export const BALANCE_KEYS = [["cards"], ["shops", "page"], ["rewards"]] as const;
