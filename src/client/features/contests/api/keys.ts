import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/** Query keys of contests: the shopper's side under ["contests"], the back-office's under ["backoffice", shopId, …]. */
export const contestsKeys = {
  all: () => ["contests"] as const,
  open: (near: { lat: number; lng: number } | null) => ["contests", "open", near] as const,
  one: (id: string) => ["contests", "one", id] as const,
  rules: (id: string, version: number | null) => ["contests", "rules", id, version] as const,
  featured: (slot: string) => ["contests", "featured", slot] as const,
  shop: backofficeKeys.shop,
  contests: (shopId: string) => backofficeKeys.part(shopId, "contests"),
  groups: (shopId: string, contestId: string) => backofficeKeys.part(shopId, "groups", contestId),
  prizeLots: (shopId: string) => backofficeKeys.part(shopId, "prize-lots"),
  winnings: (shopId: string, filter: unknown) => backofficeKeys.part(shopId, "contest-winnings", filter),
};
