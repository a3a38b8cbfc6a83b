/** Query keys of messages: the shopper's under ["messages"], a shop's under ["backoffice", shopId, "messages"]. */
export const messagesKeys = {
  all: () => ["messages"] as const,
  inbox: () => ["messages", "inbox"] as const,
  unread: () => ["messages", "unread"] as const,
  message: (id: string) => ["messages", "one", id] as const,
  preferences: () => ["messages", "preferences"] as const,
  composer: (shopId: string) => ["backoffice", shopId, "messages", "composer"] as const,
  audience: (scope: string, target: unknown) => ["backoffice", scope, "messages", "audience", target] as const,
  sent: (scope: string) => ["backoffice", scope, "messages", "sent"] as const,
};
