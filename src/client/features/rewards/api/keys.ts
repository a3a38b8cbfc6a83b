/**
 * Query keys of rewards. The shopper's side lives under ["rewards"] and ["redemptions"]; the back-office's under
 * ["backoffice", shopId, …] like every back-office page, so switching shop or validating a reward refreshes it.
 */
export const rewardsKeys = {
  page: (slug: string) => ["rewards", "page", slug] as const,
  vip: () => ["rewards", "vip"] as const,
  redemption: (id: string) => ["redemptions", id] as const,
  shop: (shopId: string) => ["backoffice", shopId] as const,
  part: (shopId: string, part: string, ...rest: unknown[]) => ["backoffice", shopId, part, ...rest] as const,
};

/**
 * What a change of points makes out of date elsewhere in the app: my cards (and their offline copy), shop pages
 * (the rewards section), the reward pages, my activity. Keys of other features, named here by their prefix only.
 */
export const BALANCE_KEYS = [["cards"], ["shops", "page"], ["rewards"]] as const;
