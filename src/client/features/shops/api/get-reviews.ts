import { infiniteQueryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const PAGE = 10;

/** GET /api/shops/:slug/reviews: newest first. */
const getReviews = (slug: string, offset: number) =>
  unwrap(api.shops[":slug"].reviews.$get({ param: { slug }, query: { limit: String(PAGE), offset: String(offset) } }));

export const reviewsQueryOptions = (slug: string) =>
  infiniteQueryOptions({
    queryKey: shopsKeys.reviews(slug),
    queryFn: ({ pageParam }) => getReviews(slug, pageParam),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length * PAGE : undefined),
  });
