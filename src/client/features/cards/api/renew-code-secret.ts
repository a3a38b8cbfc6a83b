import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

export const renewCodeSecret = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["code-secret"].$post({ param: { shopId } }));

/** A new code key: the counter code changes and every printed poster stops working. */
export function useRenewCodeSecret(shopId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await renewCodeSecret(shopId);
    await queryClient.invalidateQueries({ queryKey: backofficeKeys.shop(shopId) });
  };
}
