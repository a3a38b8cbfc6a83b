/** Query keys of contests: the shopper's side under ["contests"], the back-office's under ["backoffice", shopId, …]. */
export const contestsKeys = {
  open: (near: { lat: number; lng: number } | null) => ["contests", "open", near] as const,
  one: (id: string) => ["contests", "one", id] as const,
  rules: (id: string, version: number | null) => ["contests", "rules", id, version] as const,
  featured: (slot: string) => ["contests", "featured", slot] as const,
  shop: (shopId: string) => ["backoffice", shopId] as const,
  part: (shopId: string, part: string, ...rest: unknown[]) => ["backoffice", shopId, part, ...rest] as const,
};
