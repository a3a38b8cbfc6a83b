import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { teamQueryOptions } from "./get-team.ts";

export const cancelInvitation = (shopId: string, invitationId: string) =>
  unwrap(api.backoffice.shops[":shopId"].invitations[":invitationId"].$delete({ param: { shopId, invitationId } }));

export function useCancelInvitation(shopId: string) {
  const queryClient = useQueryClient();
  return async (invitationId: string) => {
    await cancelInvitation(shopId, invitationId);
    await queryClient.invalidateQueries({ queryKey: teamQueryOptions(shopId).queryKey });
  };
}
