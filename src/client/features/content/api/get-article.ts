import { queryOptions, useSuspenseQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contentKeys } from "./keys.ts";

export type ArticleKind = "blog" | "presentation";

const getArticle = (kind: ArticleKind, slug: string) =>
  unwrap(api.content[":kind"][":slug"].$get({ param: { kind, slug } })).then((r) => r.article);

export const articleQueryOptions = (kind: ArticleKind, slug: string) =>
  queryOptions({ queryKey: contentKeys.article(kind, slug), queryFn: () => getArticle(kind, slug), staleTime: 5 * 60_000 });

/** The article the route's loader already fetched. */
export const useArticle = (kind: ArticleKind, slug: string) => useSuspenseQuery(articleQueryOptions(kind, slug));
