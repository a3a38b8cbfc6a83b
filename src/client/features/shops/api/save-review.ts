import { useQueryClient } from "@tanstack/react-query";
import type { ReviewInput } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

type HcReviewBody = Parameters<(typeof api.shops)[":slug"]["review"]["$put"]>[0]["json"];

/**
 * PUT /api/shops/:slug/review (one per shopper and shop; no reward, ever) and DELETE it. The body is the
 * schema's input (an empty comment is absent, not null): hc's type shows the validator's output instead.
 */
export const saveReview = (slug: string, json: ReviewInput) =>
  unwrap(api.shops[":slug"].review.$put({ param: { slug }, json: json as HcReviewBody }));
export const deleteReview = (slug: string) => unwrap(api.shops[":slug"].review.$delete({ param: { slug } }));

/** After a change, the shop page and its reviews are fetched again. */
export function useRefreshShop() {
  const queryClient = useQueryClient();
  return (slug: string) =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: shopsKeys.page(slug) }),
      queryClient.invalidateQueries({ queryKey: shopsKeys.reviews(slug) }),
    ]);
}
