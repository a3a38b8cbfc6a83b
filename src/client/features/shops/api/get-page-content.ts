import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const getPageContent = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].page.$get({ param: { shopId } })).then((r) => r.page);

const pageContentQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: shopsKeys.pageContent(shopId), queryFn: () => getPageContent(shopId) });

export const usePageContent = (shopId: string) => useQuery(pageContentQueryOptions(shopId));

export type PageContent = Awaited<ReturnType<typeof getPageContent>>;
