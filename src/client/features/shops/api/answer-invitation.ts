import { useQueryClient } from "@tanstack/react-query";
import { myShopsQueryOptions, rememberShop } from "../../../components/shop/current-shop.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { invitationQueryOptions } from "./get-invitation.ts";

export const acceptInvitation = (invitationId: string) =>
  unwrap(api.backoffice.invitations[":invitationId"].accept.$post({ param: { invitationId } }));

export const rejectInvitation = (invitationId: string) =>
  unwrap(api.backoffice.invitations[":invitationId"].reject.$post({ param: { invitationId } }));

/** Accepting makes the shop mine (the counter opens on it); both refresh who I am. */
export function useAnswerInvitation(invitationId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: myShopsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: invitationQueryOptions(invitationId).queryKey }),
    ]);
  return {
    accept: async () => {
      const { shopId } = await acceptInvitation(invitationId);
      if (shopId) rememberShop(shopId);
      await refresh();
    },
    reject: async () => {
      await rejectInvitation(invitationId);
      await refresh();
    },
  };
}
