import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ContestInput } from "../../../../domain/contests/schemas.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

/** The owner's contests (/admin/jeux-concours): list, create, edit, schedule, draw, delete. */
const listOwnerContests = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].contests.$get({ param: { shopId } }));

const ownerContestsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: contestsKeys.contests(shopId), queryFn: () => listOwnerContests(shopId) });

export const useOwnerContests = (shopId: string) => useQuery(ownerContestsQueryOptions(shopId));
export type OwnerContest = Awaited<ReturnType<typeof listOwnerContests>>["contests"][number];

const contest = api.backoffice.shops[":shopId"].contests[":id"];

/** After any change: the shop's back office, and the shoppers' side (open contests, a contest's page). */
function useRefreshContests(shopId: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: contestsKeys.shop(shopId) });
    void queryClient.invalidateQueries({ queryKey: contestsKeys.all() });
  };
}

/** Creates (no id) or edits a contest. */
export function useSaveContest(shopId: string) {
  const onSuccess = useRefreshContests(shopId);
  return useMutation({
    mutationFn: ({ id, input }: { id: string | null; input: ContestInput }) =>
      id
        ? unwrap(contest.$put({ param: { shopId, id }, json: input as never }))
        : unwrap(api.backoffice.shops[":shopId"].contests.$post({ param: { shopId }, json: input as never })),
    onSuccess,
  });
}

export type ContestAction = "schedule" | "draw" | "remove";

/** Schedules a draft (its règlement is published), draws a closed draw, or deletes a draft. */
export function useContestAction(shopId: string) {
  const onSuccess = useRefreshContests(shopId);
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: ContestAction }): Promise<unknown> =>
      action === "schedule"
        ? unwrap(contest.schedule.$post({ param: { shopId, id } }))
        : action === "draw"
          ? unwrap(contest.draw.$post({ param: { shopId, id } }))
          : unwrap(contest.$delete({ param: { shopId, id } })),
    onSuccess,
  });
}
