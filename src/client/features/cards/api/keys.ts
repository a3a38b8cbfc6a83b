import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/** Query keys of cards: the counter's (["counter", shopId, …]) and the back-office's customers, passages and double points. */
export const cardsKeys = {
  personalCode: () => ["cards", "personal-code"] as const,
  /** Which phone wallets the instance offers (issue 26): the operator's settings, the same for everyone. */
  walletStatus: () => ["wallet", "status"] as const,
  /** A person as a shop sees them (/profile/:id), or one's own public profile. */
  profile: (personId: string) => ["profiles", personId] as const,
  byScan: (scanUid: string) => ["shops", "by-scan", scanUid] as const,
  counterToday: (shopId: string | null) => ["counter", shopId, "today"] as const,
  counterReader: (shopId: string | null) => ["counter", shopId, "reader"] as const,
  counterAhead: (shopId: string | null) => ["counter", shopId, "ahead"] as const,
  /** The counter tablet's (ADR 0054): its own credential, no signed-in person, no shop id to name. */
  tablet: (...part: string[]) => ["tablet", ...part] as const,
  /** Every shop's customers (the owner's shops; every shop for the platform admin): no one shop's prefix. */
  allCustomers: (filters: unknown) => ["all-customers", filters] as const,
  customers: (shopId: string, filters: unknown) => backofficeKeys.part(shopId, "customers", filters),
  customer: (shopId: string, cardId: string) => backofficeKeys.part(shopId, "customer", cardId),
  scans: (shopId: string, filters: unknown) => backofficeKeys.part(shopId, "scans", filters),
  doublePoints: (shopId: string) => backofficeKeys.part(shopId, "double-points"),
  adjustments: (shopId: string) => backofficeKeys.part(shopId, "adjustments"),
};

/**
 * What a credited scan makes out of date: my cards (and their offline copy), and the shops' pages (their balance
 * and rewards sections: another feature's key, named by its prefix).
 */
export const SCAN_KEYS = [["cards"], ["shops"]] as const;
