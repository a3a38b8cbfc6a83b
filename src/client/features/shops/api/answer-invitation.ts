import { useMutation, useQueryClient } from "@tanstack/react-query";
import { myShopsQueryOptions, rememberShop } from "../../../components/shop/current-shop.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { shopsKeys } from "./keys.ts";

const acceptInvitation = (invitationId: string) =>
  unwrap(api.backoffice.invitations[":invitationId"].accept.$post({ param: { invitationId } }));

const rejectInvitation = (invitationId: string) =>
  unwrap(api.backoffice.invitations[":invitationId"].reject.$post({ param: { invitationId } }));

export function useAnswerInvitation(invitationId: string) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: myShopsQueryOptions().queryKey }),
      queryClient.invalidateQueries({ queryKey: shopsKeys.invitation(invitationId) }),
    ]);
  const accept = useMutation({
    mutationFn: () => acceptInvitation(invitationId),
    onSuccess: ({ shopId }) => {
      if (shopId) rememberShop(shopId);
      return refresh();
    },
  });
  const reject = useMutation({ mutationFn: () => rejectInvitation(invitationId), onSuccess: refresh });
  return { accept, reject };
}
