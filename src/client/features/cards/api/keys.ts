import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/** Query keys of cards: the counter's (["counter", shopId, …]) and the back-office's customers, passages and double points. */
export const cardsKeys = {
  byScan: (scanUid: string) => ["shops", "by-scan", scanUid] as const,
  counterToday: (shopId: string | null) => ["counter", shopId, "today"] as const,
  counterReader: (shopId: string | null) => ["counter", shopId, "reader"] as const,
  customers: (shopId: string, filters: unknown) => backofficeKeys.part(shopId, "customers", filters),
  customer: (shopId: string, cardId: string) => backofficeKeys.part(shopId, "customer", cardId),
  scans: (shopId: string, filters: unknown) => backofficeKeys.part(shopId, "scans", filters),
  doublePoints: (shopId: string) => backofficeKeys.part(shopId, "double-points"),
  adjustments: (shopId: string) => backofficeKeys.part(shopId, "adjustments"),
};
