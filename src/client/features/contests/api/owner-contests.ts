import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { ContestInput } from "../../../../domain/contests/schemas.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

/** The owner's contests (/admin/jeux-concours): list, create, edit, schedule, draw, delete. */
export const listOwnerContests = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"].contests.$get({ param: { shopId } }));

export const ownerContestsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: contestsKeys.part(shopId, "contests"), queryFn: () => listOwnerContests(shopId) });

export const useOwnerContests = (shopId: string) => useQuery(ownerContestsQueryOptions(shopId));
export type OwnerContest = Awaited<ReturnType<typeof listOwnerContests>>["contests"][number];

const contest = api.backoffice.shops[":shopId"].contests[":id"];

export function useOwnerContestActions(shopId: string) {
  const queryClient = useQueryClient();
  const done = async <T>(result: T) => {
    await queryClient.invalidateQueries({ queryKey: contestsKeys.shop(shopId) });
    void queryClient.invalidateQueries({ queryKey: ["contests"] });
    return result;
  };
  return {
    save: async (id: string | null, input: ContestInput) =>
      done(
        id
          ? await unwrap(contest.$put({ param: { shopId, id }, json: input as never }))
          : await unwrap(api.backoffice.shops[":shopId"].contests.$post({ param: { shopId }, json: input as never })),
      ),
    schedule: async (id: string) => done(await unwrap(contest.schedule.$post({ param: { shopId, id } }))),
    draw: async (id: string) => done(await unwrap(contest.draw.$post({ param: { shopId, id } }))),
    remove: async (id: string) => done(await unwrap(contest.$delete({ param: { shopId, id } }))),
  };
}
