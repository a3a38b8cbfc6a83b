import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { FeaturedSlot } from "../../../../domain/contests/schemas.ts";
import { myContestsQueryOptions } from "../../../components/contests/won-lots.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { deviceId } from "../../../lib/device-id.ts";
import { contestsKeys } from "./keys.ts";

/** The shopper's side: open contests, mine, a contest's public page and règlement, entering and spinning. */
const listOpenContests = (near: { lat: number; lng: number } | null) =>
  unwrap(api.contests.$get({ query: near ? { lat: near.lat, lng: near.lng } : {} }));
export const useOpenContests = (near: { lat: number; lng: number } | null) =>
  useQuery(queryOptions({ queryKey: contestsKeys.open(near), queryFn: () => listOpenContests(near) }));
export type ContestSummary = Awaited<ReturnType<typeof listOpenContests>>["contests"][number];

export const useMyContests = (enabled: boolean) => useQuery(myContestsQueryOptions(enabled));

const getPublicContest = (id: string) => unwrap(api.contests[":id"].$get({ param: { id } }));
export const usePublicContest = (id: string | null) =>
  useQuery(
    queryOptions({
      queryKey: contestsKeys.one(id ?? ""),
      queryFn: () => getPublicContest(id ?? ""),
      enabled: Boolean(id),
    }),
  );
export type PublicContest = Awaited<ReturnType<typeof getPublicContest>>;

const getRules = (id: string, version: number | null) =>
  unwrap(api.contests[":id"].rules.$get({ param: { id }, query: version ? { version } : {} }));
export const useRules = (id: string, version: number | null) =>
  useQuery(queryOptions({ queryKey: contestsKeys.rules(id, version), queryFn: () => getRules(id, version) }));

const getFeatured = (slot: FeaturedSlot) => unwrap(api.contests.featured[":slot"].$get({ param: { slot } }));
export const useFeatured = (slot: FeaturedSlot) =>
  useQuery(queryOptions({ queryKey: contestsKeys.featured(slot), queryFn: () => getFeatured(slot) }));

/** The phone's device id goes with every entry: one person, one entry (src/domain/contests/one-person.ts). */
const playBody = (marketingConsent: boolean) => ({ marketingConsent, deviceId: deviceId() ?? null });

const spin = (id: string, marketingConsent: boolean) =>
  unwrap(api.contests[":id"].spin.$post({ param: { id }, json: playBody(marketingConsent) }));

/** Enters a draw; the contests shown (mine, the open ones) follow. */
export function useEnterDraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, marketingConsent }: { id: string; marketingConsent: boolean }) =>
      unwrap(api.contests[":id"].enter.$post({ param: { id }, json: playBody(marketingConsent) })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contestsKeys.all() }),
  });
}

/**
 * Spins a wheel. The contests shown are refreshed only once the wheel stops (`refresh`, called by the page), so
 * the result is not given away early.
 */
export function useSpin() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: ({ id, marketingConsent }: { id: string; marketingConsent: boolean }) => spin(id, marketingConsent),
  });
  return { ...mutation, refresh: () => queryClient.invalidateQueries({ queryKey: contestsKeys.all() }) };
}

/** The platform admin pins a contest to a featured page (or unpins it with null). */
export function usePinFeatured(slot: FeaturedSlot) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contestId: string | null) =>
      unwrap(api.contests.featured[":slot"].$put({ param: { slot }, json: { contestId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contestsKeys.featured(slot) }),
  });
}
