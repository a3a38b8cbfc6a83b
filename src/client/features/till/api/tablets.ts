import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { tabletCreateSchema } from "../../../../domain/schemas/till.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { tillKeys } from "./keys.ts";

/** /admin/caisse: the shop's counter tablets (ADR 0054): added with a pairing link shown once, listed, removed. */
const tablets = api.backoffice.shops[":shopId"].tablets;

const listTablets = (shopId: string) => unwrap(tablets.$get({ param: { shopId } }));
export type Tablet = Awaited<ReturnType<typeof listTablets>>["tablets"][number];

export const tabletsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: tillKeys.tablets(shopId), queryFn: () => listTablets(shopId) });

export function useCreateTablet(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: z.input<typeof tabletCreateSchema>) => unwrap(tablets.$post({ param: { shopId }, json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.tablets(shopId) }),
  });
}

export function useRevokeTablet(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tabletId: string) => unwrap(tablets[":tabletId"].revoke.$post({ param: { shopId, tabletId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.tablets(shopId) }),
  });
}
