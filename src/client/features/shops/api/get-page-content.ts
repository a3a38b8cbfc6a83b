import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

export const getPageContent = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].page.$get({ param: { shopId } })).then((r) => r.page);

export const pageContentQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: shopsKeys.pageContent(shopId), queryFn: () => getPageContent(shopId) });

export const usePageContent = (shopId: string) => useQuery(pageContentQueryOptions(shopId));

export type PageContent = Awaited<ReturnType<typeof getPageContent>>;
