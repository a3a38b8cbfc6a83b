import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { doublePointsSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

type Input = z.output<typeof doublePointsSchema>;

const createDoublePoints = (shopId: string, input: Input) =>
  unwrap(api.backoffice.shops[":shopId"]["double-points"].$post({ param: { shopId }, json: input })).then(
    (r) => r.period,
  );

const updateDoublePoints = (shopId: string, periodId: string, input: Input) =>
  unwrap(
    api.backoffice.shops[":shopId"]["double-points"][":periodId"].$put({ param: { shopId, periodId }, json: input }),
  ).then((r) => r.period);

/** Creates (no id) or updates a period, then reloads the list. */
export function useSaveDoublePoints(shopId: string) {
  const queryClient = useQueryClient();
  const { mutateAsync } = useMutation({
    mutationFn: ({ periodId, input }: { periodId: string | null; input: Input }) =>
      periodId ? updateDoublePoints(shopId, periodId, input) : createDoublePoints(shopId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cardsKeys.doublePoints(shopId) }),
  });
  return (periodId: string | null, input: Input) => mutateAsync({ periodId, input });
}
