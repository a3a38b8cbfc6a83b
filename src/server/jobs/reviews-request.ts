import { runReviewRequests } from "../modules/messages/review-requests.service.ts";
import { defineJob } from "./define.ts";

/**
 * Review requests (issue 28 item 2, ADR 0048): every 5 minutes, each shop that turned them on asks the customers
 * whose recent visit is an asking one, once per 90 days at most. `now` (ISO) is the clock, which tests set.
 */
export const reviewsRequest = defineJob<"reviews.request", { now?: string }>({
  name: "reviews.request",
  queue: { expireInSeconds: 600, retryLimit: 3, retryDelay: 30, retryBackoff: true },
  schedule: { cron: "*/5 * * * *" },
  async run(data, { deps, logger }) {
    const result = await runReviewRequests(deps, data.now ? new Date(data.now) : new Date());
    if (result.asked > 0) logger.info("reviews: requests sent", result);
    return result;
  },
});
