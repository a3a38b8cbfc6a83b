import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

const renewCodeSecret = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["code-secret"].$post({ param: { shopId } }));

/** Renews the codes' key; everything the back-office shows of the shop is then reloaded. */
export function useRenewCodeSecret(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => renewCodeSecret(shopId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backofficeKeys.shop(shopId) }),
  });
}
