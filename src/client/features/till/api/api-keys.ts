import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { apiKeyCreateSchema } from "../../../../domain/schemas/till.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { tillKeys } from "./keys.ts";

/** /admin/caisse: the shop's API keys (create: the key is in that answer only; revoke). */
const listApiKeys = (shopId: string) => unwrap(api.backoffice.shops[":shopId"]["api-keys"].$get({ param: { shopId } }));
export type ApiKey = Awaited<ReturnType<typeof listApiKeys>>["keys"][number];

export const apiKeysQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: tillKeys.apiKeys(shopId), queryFn: () => listApiKeys(shopId) });

export function useCreateApiKey(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: z.input<typeof apiKeyCreateSchema>) =>
      unwrap(api.backoffice.shops[":shopId"]["api-keys"].$post({ param: { shopId }, json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.apiKeys(shopId) }),
  });
}

export function useRevokeApiKey(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (keyId: string) =>
      unwrap(api.backoffice.shops[":shopId"]["api-keys"][":keyId"].revoke.$post({ param: { shopId, keyId } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.apiKeys(shopId) }),
  });
}

/** A new receipt key for the till (shown once). */
export function useRenewReceiptKey(shopId: string) {
  return useMutation({
    mutationFn: () => unwrap(api.backoffice.shops[":shopId"]["receipt-key"].$post({ param: { shopId } })),
  });
}
