import { handleZettlePurchase } from "../modules/till/till-connector.service.ts";
import { defineJob } from "./define.ts";

/**
 * A purchase a till pushed (modules/till/till-connector.service.ts, ADR 0051): read from the vendor and credited
 * or taken back once. The vendor unavailable: the engine tries again with back-off.
 */
export const tillPurchase = defineJob<"till.purchase", { shopId: string; purchaseUuid: string }>({
  name: "till.purchase",
  queue: { expireInSeconds: 120, retryLimit: 8, retryDelay: 10, retryBackoff: true },
  worker: { pollingIntervalSeconds: 0.5, localConcurrency: 2 },
  async run(data, { deps }) {
    return handleZettlePurchase(deps, data);
  },
});
