import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { zettleConnectSchema } from "../../../../domain/schemas/till.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { tillKeys } from "./keys.ts";

/** /admin/caisse: the shop's till connection (Zettle, ADR 0051) and the last sales it brought. */
const getConnection = (shopId: string) =>
  unwrap(api.backoffice.shops[":shopId"]["till-connection"].$get({ param: { shopId } }));
export type TillConnectionState = Awaited<ReturnType<typeof getConnection>>;

export const tillConnectionQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: tillKeys.connection(shopId), queryFn: () => getConnection(shopId) });

export function useConnectZettle(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: z.input<typeof zettleConnectSchema>) =>
      unwrap(api.backoffice.shops[":shopId"]["till-connection"].zettle.$put({ param: { shopId }, json })),
    onSuccess: (state) => queryClient.setQueryData(tillKeys.connection(shopId), state),
  });
}

export function useDisconnectTill(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => unwrap(api.backoffice.shops[":shopId"]["till-connection"].$delete({ param: { shopId } })),
    onSuccess: (state) => queryClient.setQueryData(tillKeys.connection(shopId), state),
  });
}
