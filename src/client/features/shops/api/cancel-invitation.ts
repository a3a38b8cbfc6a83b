import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const cancelInvitation = (shopId: string, invitationId: string) =>
  unwrap(api.backoffice.shops[":shopId"].invitations[":invitationId"].$delete({ param: { shopId, invitationId } }));

export function useCancelInvitation(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (invitationId: string) => {
      await cancelInvitation(shopId, invitationId);
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopsKeys.team(shopId) }),
  });
}
