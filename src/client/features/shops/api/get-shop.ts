import { onlineManager, queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { data, type LoaderFunctionArgs } from "react-router";
import { ApiError, api, unwrap } from "../../../lib/api-client.ts";
import { queryClient } from "../../../lib/query-client.ts";
import { shopsKeys } from "./keys.ts";

/** GET /api/shops/:slug: the shop page, with my card and review when signed in. */
const getShop = (slug: string) => unwrap(api.shops[":slug"].$get({ param: { slug } }));

export const shopQueryOptions = (slug: string) =>
  queryOptions({ queryKey: shopsKeys.page(slug), queryFn: () => getShop(slug) });

export type ShopPageData = Awaited<ReturnType<typeof getShop>>;

/** The route's loader: an unknown slug is the app's 404 before the page renders. */
export async function shopLoader({ params, request }: LoaderFunctionArgs) {
  const slug = params.slug ?? "";
  try {
    if (!/^[a-z0-9-]{1,80}$/.test(slug)) throw new ApiError(404, { code: "NOT_FOUND", message: "" });
    // Offline, a page never seen here would wait for the network forever (a blank page): say so instead.
    if (!onlineManager.isOnline() && !queryClient.getQueryData(shopQueryOptions(slug).queryKey)) {
      throw new ApiError(0, { code: "INTERNAL", message: "Cette page a besoin d'Internet." });
    }
    await queryClient.ensureQueryData(shopQueryOptions(slug));
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) {
      throw data(`Page not found: ${new URL(request.url).pathname}`, { status: 404 });
    }
    throw error;
  }
  return null;
}

export const useShop = (slug: string) => useSuspenseQuery(shopQueryOptions(slug));
