import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const removeMember = (shopId: string, memberId: string) =>
  unwrap(api.backoffice.shops[":shopId"].members[":memberId"].$delete({ param: { shopId, memberId } }));

export function useRemoveMember(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (memberId: string) => {
      await removeMember(shopId, memberId);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopsKeys.team(shopId) }),
  });
}
