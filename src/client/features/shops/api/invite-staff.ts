import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { invitationSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const inviteStaff = (shopId: string, input: z.output<typeof invitationSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].invitations.$post({ param: { shopId }, json: input })).then(
    (r) => r.invitation,
  );

export function useInviteStaff(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.output<typeof invitationSchema>) => inviteStaff(shopId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopsKeys.team(shopId) }),
  }).mutateAsync;
}
