import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { invitationSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { teamQueryOptions } from "./get-team.ts";

export const inviteStaff = (shopId: string, input: z.output<typeof invitationSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].invitations.$post({ param: { shopId }, json: input })).then(
    (r) => r.invitation,
  );

export function useInviteStaff(shopId: string) {
  const queryClient = useQueryClient();
  return async (input: z.output<typeof invitationSchema>) => {
    const invitation = await inviteStaff(shopId, input);
    await queryClient.invalidateQueries({ queryKey: teamQueryOptions(shopId).queryKey });
    return invitation;
  };
}
