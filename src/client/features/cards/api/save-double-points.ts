import { useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { doublePointsSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { doublePointsQueryOptions } from "./list-double-points.ts";

type Input = z.output<typeof doublePointsSchema>;

export const createDoublePoints = (shopId: string, input: Input) =>
  unwrap(api.backoffice.shops[":shopId"]["double-points"].$post({ param: { shopId }, json: input })).then(
    (r) => r.period,
  );

export const updateDoublePoints = (shopId: string, periodId: string, input: Input) =>
  unwrap(
    api.backoffice.shops[":shopId"]["double-points"][":periodId"].$put({ param: { shopId, periodId }, json: input }),
  ).then((r) => r.period);

/** Creates (no id) or updates a period, then reloads the list. */
export function useSaveDoublePoints(shopId: string) {
  const queryClient = useQueryClient();
  return async (periodId: string | null, input: Input) => {
    const period = periodId
      ? await updateDoublePoints(shopId, periodId, input)
      : await createDoublePoints(shopId, input);
    await queryClient.invalidateQueries({ queryKey: doublePointsQueryOptions(shopId).queryKey });
    return period;
  };
}
