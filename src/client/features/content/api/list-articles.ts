import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import type { ArticleKind } from "./get-article.ts";
import { contentKeys } from "./keys.ts";

const listArticles = (kind: ArticleKind) =>
  unwrap(api.content[":kind"].$get({ param: { kind } })).then((r) => r.articles);

export const articlesQueryOptions = (kind: ArticleKind) =>
  queryOptions({ queryKey: contentKeys.articles(kind), queryFn: () => listArticles(kind), staleTime: 5 * 60_000 });

export const useArticles = (kind: ArticleKind) => useQuery(articlesQueryOptions(kind));
