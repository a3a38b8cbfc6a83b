import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

/** The owner's feed of corrections and their word on the waiting ones (ADR 0036). */
const shop = api.backoffice.shops[":shopId"];

/** GET …/adjustments: waiting requests first, then every correction, newest first. */
const listAdjustments = (shopId: string) =>
  unwrap(shop.adjustments.$get({ param: { shopId }, query: { limit: "50", alerts: "0" } }));
type AdjustmentsFeed = Awaited<ReturnType<typeof listAdjustments>>;
export type FeedAdjustment = AdjustmentsFeed["adjustments"][number];

const adjustmentsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: cardsKeys.adjustments(shopId), queryFn: () => listAdjustments(shopId) });

export const useAdjustments = (shopId: string) => useQuery(adjustmentsQueryOptions(shopId));

/** POST …/adjustments/:id/approve or /refuse: an owner or a manager decides a waiting correction. */
export const decideAdjustment = (shopId: string, adjustmentId: string, verb: "approve" | "refuse") =>
  unwrap(
    verb === "approve"
      ? shop.adjustments[":adjustmentId"].approve.$post({ param: { shopId, adjustmentId } })
      : shop.adjustments[":adjustmentId"].refuse.$post({ param: { shopId, adjustmentId } }),
  );
