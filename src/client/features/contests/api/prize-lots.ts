import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PrizeLotInput } from "../../../../domain/contests/schemas.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

/** GET/POST/PUT/DELETE …/prize-lots: the shop's stock of prizes. */
const listPrizeLots = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["prize-lots"].$get({ param: { shopId } }));

const prizeLotsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: contestsKeys.prizeLots(shopId), queryFn: () => listPrizeLots(shopId) });

export const usePrizeLots = (shopId: string) => useQuery(prizeLotsQueryOptions(shopId));
export type PrizeLot = Awaited<ReturnType<typeof listPrizeLots>>["lots"][number];

const createLot = (shopId: string, json: PrizeLotInput) =>
  unwrap(api.backoffice.shops[":shopId"]["prize-lots"].$post({ param: { shopId }, json: json as never })).then(
    (r) => r.lot,
  );
const updateLot = (shopId: string, lotId: string, json: PrizeLotInput) =>
  unwrap(
    api.backoffice.shops[":shopId"]["prize-lots"][":lotId"].$put({ param: { shopId, lotId }, json: json as never }),
  ).then((r) => r.lot);
const archiveLot = (shopId: string, lotId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["prize-lots"][":lotId"].$delete({ param: { shopId, lotId } }));

/** Creates (no id) or updates a lot; then refreshes the shop's back-office data (contests show their lots). */
export function useSavePrizeLot(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ lotId, input }: { lotId: string | null; input: PrizeLotInput }) =>
      lotId ? updateLot(shopId, lotId, input) : createLot(shopId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contestsKeys.shop(shopId) }),
  });
}

/** Takes a lot out of the stock (archived: the lots already won keep it). */
export function useArchivePrizeLot(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lotId: string) => archiveLot(shopId, lotId),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contestsKeys.shop(shopId) }),
  });
}
