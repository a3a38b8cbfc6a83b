import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/** Query keys of shops: the public pages under ["shops", …], the owner's settings under the shop's back-office prefix. */
export const shopsKeys = {
  pages: () => ["shops", "page"] as const,
  page: (slug: string) => ["shops", "page", slug] as const,
  reviews: (slug: string) => ["shops", "reviews", slug] as const,
  search: (kind: string, filters: unknown) => ["shops", kind, filters] as const,
  invitation: (invitationId: string) => ["invitation", invitationId] as const,
  dashboard: (shopId: string, days: number) => backofficeKeys.part(shopId, "dashboard", days),
  owed: (shopId: string) => backofficeKeys.part(shopId, "owed"),
  retention: (shopId: string) => backofficeKeys.part(shopId, "retention"),
  hours: (shopId: string) => backofficeKeys.part(shopId, "hours"),
  legal: (shopId: string) => backofficeKeys.part(shopId, "legal"),
  pageContent: (shopId: string) => backofficeKeys.part(shopId, "page"),
  team: (shopId: string) => backofficeKeys.part(shopId, "team"),
};
