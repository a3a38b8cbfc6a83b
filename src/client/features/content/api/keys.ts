/** Query keys of the content pages: everything under ["content", …]. */
export const contentKeys = {
  articles: (kind: string) => ["content", kind] as const,
  article: (kind: string, slug: string) => ["content", kind, slug] as const,
  legalNotice: () => ["content", "legal"] as const,
  activity: () => ["content", "activity"] as const,
};
