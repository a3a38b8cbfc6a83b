import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { webhookCreateSchema } from "../../../../domain/schemas/till.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { tillKeys } from "./keys.ts";

/** /admin/caisse: webhook subscriptions (the secret is in the creation's answer only), their log, « Renvoyer ». */
const listWebhooks = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].webhooks.$get({ param: { shopId } }));
export type Webhook = Awaited<ReturnType<typeof listWebhooks>>["webhooks"][number];

export const webhooksQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: tillKeys.webhooks(shopId), queryFn: () => listWebhooks(shopId) });

const listDeliveries = (shopId: string, id: string) =>
  unwrap(api.backoffice.shops[":shopId"].webhooks[":id"].deliveries.$get({ param: { shopId, id } }));
export type Delivery = Awaited<ReturnType<typeof listDeliveries>>["deliveries"][number];

export const deliveriesQueryOptions = (shopId: string, id: string) =>
  queryOptions({ queryKey: tillKeys.deliveries(shopId, id), queryFn: () => listDeliveries(shopId, id) });

export function useCreateWebhook(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: z.input<typeof webhookCreateSchema>) =>
      unwrap(api.backoffice.shops[":shopId"].webhooks.$post({ param: { shopId }, json })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.webhooks(shopId) }),
  });
}

export function useDeleteWebhook(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      unwrap(api.backoffice.shops[":shopId"].webhooks[":id"].$delete({ param: { shopId, id } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.webhooks(shopId) }),
  });
}

export function useResendDelivery(shopId: string, id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      unwrap(
        api.backoffice.shops[":shopId"].webhooks[":id"].deliveries[":deliveryId"].resend.$post({
          param: { shopId, id, deliveryId },
        }),
      ),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: tillKeys.deliveries(shopId, id) }),
  });
}
