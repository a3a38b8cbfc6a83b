import { useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { teamQueryOptions } from "./get-team.ts";

export const removeMember = (shopId: string, memberId: string) =>
  unwrap(api.backoffice.shops[":shopId"].members[":memberId"].$delete({ param: { shopId, memberId } }));

export function useRemoveMember(shopId: string) {
  const queryClient = useQueryClient();
  return async (memberId: string) => {
    await removeMember(shopId, memberId);
    await queryClient.invalidateQueries({ queryKey: teamQueryOptions(shopId).queryKey });
  };
}
