import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/**
 * Query keys of messages: the shopper's under ["messages"], a shop's under its back-office prefix
 * (["backoffice", shopId, …]: composer, audience, sent, newsletters, SMS), the platform's announcements under
 * ["backoffice", "platform", …].
 */
export const messagesKeys = {
  all: () => ["messages"] as const,
  inbox: () => ["messages", "inbox"] as const,
  unread: () => ["messages", "unread"] as const,
  message: (id: string) => ["messages", "one", id] as const,
  preferences: () => ["messages", "preferences"] as const,
  composer: (shopId: string) => backofficeKeys.part(shopId, "messages", "composer"),
  audience: (scope: string, target: unknown) => backofficeKeys.part(scope, "messages", "audience", target),
  sent: (scope: string) => backofficeKeys.part(scope, "messages", "sent"),
  newsletterEditor: (shopId: string) => backofficeKeys.part(shopId, "newsletter", "editor"),
  newsletterAudience: (shopId: string, segment: unknown) =>
    backofficeKeys.part(shopId, "newsletter", "audience", segment),
  newsletterPreview: (shopId: string, content: unknown) =>
    backofficeKeys.part(shopId, "newsletter", "preview", content),
  newsletters: (shopId: string) => backofficeKeys.part(shopId, "newsletter", "campaigns"),
  sms: (shopId: string) => backofficeKeys.part(shopId, "sms"),
  reviews: (shopId: string) => backofficeKeys.part(shopId, "reviews"),
  automations: (shopId: string, days: number) => backofficeKeys.part(shopId, "automations", days),
};
