import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { ReviewSettings } from "../../../../domain/reviews/review-requests.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** /admin/avis: the review requests' settings, the requests sent and the reviews received. */
const getReviewsPage = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].reviews.$get({ param: { shopId } }));
export type ReviewsPage = Awaited<ReturnType<typeof getReviewsPage>>;

export const reviewsPageQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: messagesKeys.reviews(shopId), queryFn: () => getReviewsPage(shopId) });

export function useSaveReviewSettings(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: ReviewSettings) =>
      unwrap(api.backoffice.shops[":shopId"].reviews.settings.$put({ param: { shopId }, json: settings })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKeys.reviews(shopId) }),
  });
}
