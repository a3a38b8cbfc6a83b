import { queryOptions, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PrizeLotInput } from "../../../../domain/contests/schemas.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

/** GET/POST/PUT/DELETE …/prize-lots: the shop's stock of prizes. */
export const listPrizeLots = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["prize-lots"].$get({ param: { shopId } }));

export const prizeLotsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: contestsKeys.part(shopId, "prize-lots"), queryFn: () => listPrizeLots(shopId) });

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

/** Creates (no id) or updates a lot, or archives one; then refreshes the shop's back-office data. */
export function usePrizeLotActions(shopId: string) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: contestsKeys.shop(shopId) });
  return {
    save: async (lotId: string | null, input: PrizeLotInput) => {
      const lot = lotId ? await updateLot(shopId, lotId, input) : await createLot(shopId, input);
      await refresh();
      return lot;
    },
    archive: async (lotId: string) => {
      await archiveLot(shopId, lotId);
      await refresh();
    },
  };
}
