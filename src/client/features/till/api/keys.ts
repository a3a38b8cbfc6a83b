import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

/** Query keys of /admin/caisse, under the shop's back-office keys (one invalidation clears a shop). */
export const tillKeys = {
  apiKeys: (shopId: string) => backofficeKeys.part(shopId, "api-keys"),
  tablets: (shopId: string) => backofficeKeys.part(shopId, "tablets"),
  webhooks: (shopId: string) => backofficeKeys.part(shopId, "webhooks"),
  deliveries: (shopId: string, webhookId: string) => backofficeKeys.part(shopId, "webhooks", webhookId, "deliveries"),
  connection: (shopId: string) => backofficeKeys.part(shopId, "till-connection"),
};
