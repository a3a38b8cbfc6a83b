import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { ShopRegistration } from "../../../../domain/schemas/shops.ts";
import { myShopsQueryOptions, rememberShop } from "../../../components/shop/current-shop.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";

const registerShop = (input: ShopRegistration) => unwrap(api.shops.$post({ json: input })).then((r) => r.shop);

/** Registers the shop, makes it the current one, and reloads who I am and my shops. */
export function useRegisterShop() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerShop,
    onSuccess: (shop) => {
      rememberShop(shop.id);
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
        queryClient.invalidateQueries({ queryKey: myShopsQueryOptions().queryKey }),
      ]);
    },
  }).mutateAsync;
}
