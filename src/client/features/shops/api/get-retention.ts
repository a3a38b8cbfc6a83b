import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { shopsKeys } from "./keys.ts";

/** The dashboard's retention figures (cohorts, rhythm, at risk, weeks, top customers). */
const getRetention = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].retention.$get({ param: { shopId } }));
export type Retention = Awaited<ReturnType<typeof getRetention>>;

const retentionQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: shopsKeys.retention(shopId), queryFn: () => getRetention(shopId) });

export const useRetention = (shopId: string) => useQuery(retentionQueryOptions(shopId));

/** The at-risk list's one-tap win-back: the shop's « Vous nous manquez » to one customer now. */
export function useSendWinBack(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (cardId: string) =>
      unwrap(api.backoffice.shops[":shopId"].automations.win_back.send.$post({ param: { shopId }, json: { cardId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: shopsKeys.retention(shopId) }),
  });
}
