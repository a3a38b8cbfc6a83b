import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** A shop's SMS: the gateway, the STOP number, the month's budget, the send window (/admin/test-sms, the composer). */
const getSms = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].sms.$get({ param: { shopId } }));
export type SmsOverview = Awaited<ReturnType<typeof getSms>>;
export const smsQueryOptions = (shopId: string) =>
  queryOptions({ queryKey: messagesKeys.sms(shopId), queryFn: () => getSms(shopId) });

/** The owner asks the platform admin for a monthly budget (only the admin grants it, ADR 0032). */
export function useRequestSmsBudget(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (json: { monthlySegments: number; note: string }) =>
      unwrap(api.backoffice.shops[":shopId"].sms["budget-request"].$post({ param: { shopId }, json })),
    onSuccess: (data) => queryClient.setQueryData(messagesKeys.sms(shopId), data),
  });
}

/** A code by SMS to the owner's own number, then the code typed back: test SMS go only there. */
export function useSendPhoneCode(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phone: string) =>
      unwrap(api.backoffice.shops[":shopId"].sms.phone.$post({ param: { shopId }, json: { phone } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKeys.sms(shopId) }),
  });
}

export function useConfirmPhoneCode(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) =>
      unwrap(api.backoffice.shops[":shopId"].sms.phone.confirm.$post({ param: { shopId }, json: { code } })),
    onSuccess: (data) => queryClient.setQueryData(messagesKeys.sms(shopId), data),
  });
}

export function useSendTestSms(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { text: string }) =>
      unwrap(api.backoffice.shops[":shopId"].sms.test.$post({ param: { shopId }, json: input })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: messagesKeys.sms(shopId) }),
  });
}

export const PROVIDER_LABELS_FR: Record<SmsOverview["provider"], string> = {
  brevo: "Brevo",
  ovh: "OVHcloud",
  twilio: "Twilio",
  smsgate: "SMSGate (un téléphone Android de la boutique)",
  outbox: "Aucune passerelle : les SMS restent dans la boîte d'envoi de l'administration Fidèle",
};
