import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { data, type LoaderFunctionArgs } from "react-router";
import { ApiError, api, unwrap } from "../../../lib/api-client.ts";
import { queryClient } from "../../../lib/query-client.ts";
import { rewardsKeys } from "./keys.ts";

/** GET /api/rewards/:slug: the reward, its shop, and where the viewer stands (balance, pending redemption). */
const getRewardPage = (slug: string) => unwrap(api.rewards[":slug"].$get({ param: { slug } }));

const rewardPageQueryOptions = (slug: string) =>
  queryOptions({ queryKey: rewardsKeys.page(slug), queryFn: () => getRewardPage(slug), staleTime: 10_000 });

export type RewardPageData = Awaited<ReturnType<typeof getRewardPage>>;

/** The route's loader: an unknown (or archived) reward is the app's 404 before the page renders. */
export async function rewardLoader({ params, request }: LoaderFunctionArgs) {
  const slug = params.rewardSlug ?? "";
  try {
    if (!/^[a-z0-9-]{1,80}$/.test(slug)) throw new ApiError(404, { code: "NOT_FOUND", message: "" });
    await queryClient.ensureQueryData(rewardPageQueryOptions(slug));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
    }
    throw error;
  }
  return null;
}

export const useRewardPage = (slug: string) => useSuspenseQuery(rewardPageQueryOptions(slug));
