import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";

/** A shop's SMS: the gateway, the STOP number, the month's budget, the send window (/admin/test-sms, the composer). */
export const smsKey = (shopId: string) => ["backoffice", shopId, "sms"] as const;
export const getSms = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].sms.$get({ param: { shopId } }));
export type SmsOverview = Awaited<ReturnType<typeof getSms>>;
export const smsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: smsKey(shopId), queryFn: () => getSms(shopId) });

export function useSetSmsBudget(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (monthlySegments: number) =>
      unwrap(api.backoffice.shops[":shopId"].sms.budget.$put({ param: { shopId }, json: { monthlySegments } })),
    onSuccess: (data) => queryClient.setQueryData(smsKey(shopId), data),
  });
}

export function useSendTestSms(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { to: string; text: string }) =>
      unwrap(api.backoffice.shops[":shopId"].sms.test.$post({ param: { shopId }, json: input })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: smsKey(shopId) }),
  });
}

export const PROVIDER_LABELS_FR: Record<SmsOverview["provider"], string> = {
  brevo: "Brevo",
  ovh: "OVHcloud",
  twilio: "Twilio",
  smsgate: "SMSGate (un téléphone Android de la boutique)",
  outbox: "Aucune passerelle : les SMS restent dans la boîte d'envoi de l'administrateur Fidèle",
};
