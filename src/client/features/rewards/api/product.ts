import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/** GET …/products/:slug: one reward (its slug) or prize lot (`lot-<id>`) of the shop, with its figures (/admin/{product}). */
const getProduct = (shopId: string, slug: string) =>
  unwrap(api.backoffice.shops[":shopId"].products[":slug"].$get({ param: { shopId, slug } })).then((r) => r.product);

export type Product = Awaited<ReturnType<typeof getProduct>>;

const productKey = (shopId: string, slug: string) => [...rewardsKeys.shop(shopId), "product", slug] as const;

export const useProduct = (shopId: string | null, slug: string) =>
  useQuery({
    queryKey: productKey(shopId ?? "", slug),
    queryFn: () => getProduct(shopId ?? "", slug),
    enabled: Boolean(shopId),
    retry: false,
  });

/** Archives it: hidden from customers, history kept. Refreshes the shop's back-office (catalogue, lots). */
export function useArchiveProduct(shopId: string, slug: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      unwrap(api.backoffice.shops[":shopId"].products[":slug"].archive.$post({ param: { shopId, slug } })).then(
        (r) => r.product,
      ),
    onSuccess: (product) => {
      queryClient.setQueryData(productKey(shopId, slug), product);
      void queryClient.invalidateQueries({ queryKey: rewardsKeys.shopPages() });
      return queryClient.invalidateQueries({ queryKey: rewardsKeys.shop(shopId) });
    },
  });
}
