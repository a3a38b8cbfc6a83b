import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

const getInvitation = (invitationId: string) =>
  unwrap(api.backoffice.invitations[":invitationId"].$get({ param: { invitationId } })).then((r) => r.invitation);

const invitationQueryOptions = (invitationId: string) =>
  queryOptions({
    queryKey: shopsKeys.invitation(invitationId),
    queryFn: () => getInvitation(invitationId),
    staleTime: 0,
  });

export const useInvitation = (invitationId: string, enabled: boolean) =>
  useQuery({ ...invitationQueryOptions(invitationId), enabled });
