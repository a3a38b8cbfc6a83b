/**
 * Query keys of one shop's back-office. Everything the back-office knows about a shop starts with
 * ["backoffice", shopId], so that one prefix refreshes it all (a renewed key, a validated reward, another shop).
 * Each feature names its own parts under it in its key factory (cardsKeys, shopsKeys, rewardsKeys); the two
 * parts every feature reads, the shop's overview and its card settings, are named here.
 */
export const backofficeKeys = {
  shop: (shopId: string) => ["backoffice", shopId] as const,
  part: (shopId: string, part: string, ...rest: unknown[]) => ["backoffice", shopId, part, ...rest] as const,
  overview: (shopId: string) => backofficeKeys.part(shopId, "overview"),
  card: (shopId: string) => backofficeKeys.part(shopId, "card"),
};
