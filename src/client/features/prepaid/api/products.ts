import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { prepaidKeys } from "../../../components/prepaid/prepaid-api.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

/** The owner's prepaid products: GET, POST, PATCH …/prepaid/products (ADR 0049). */
const productsKey = (shopId: string) => [...prepaidKeys.shop(shopId), "products"] as const;

export const useOwnerProducts = (shopId: string) =>
  useQuery({
    queryKey: productsKey(shopId),
    queryFn: () =>
      unwrap(api.backoffice.shops[":shopId"].prepaid.products.$get({ param: { shopId } })).then((r) => r.products),
  });
export type OwnerProduct = NonNullable<ReturnType<typeof useOwnerProducts>["data"]>[number];

export function useCreateProduct(shopId: string) {
  const queryClient = useQueryClient();
  return async (json: {
    kind: "units" | "euros";
    title: string;
    quantity: number;
    priceCents: number;
    validityMonths: number;
  }) => {
    const r = await unwrap(api.backoffice.shops[":shopId"].prepaid.products.$post({ param: { shopId }, json }));
    await queryClient.invalidateQueries({ queryKey: prepaidKeys.shop(shopId) });
    return r.product;
  };
}

export function useSetProductActive(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { productId: string; isActive: boolean }) =>
      unwrap(
        api.backoffice.shops[":shopId"].prepaid.products[":productId"].active.$patch({
          param: { shopId, productId: v.productId },
          json: { isActive: v.isActive },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: prepaidKeys.shop(shopId) }),
  });
}
