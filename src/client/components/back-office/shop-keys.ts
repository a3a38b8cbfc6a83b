/** Query keys of the back-office: everything about one shop starts with ["backoffice", shopId]. */
export const backofficeKeys = {
  shop: (shopId: string) => ["backoffice", shopId] as const,
  part: (shopId: string, part: string, ...rest: unknown[]) => ["backoffice", shopId, part, ...rest] as const,
};
