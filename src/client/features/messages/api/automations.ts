import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import type { AutomationKind, AutomationSettings } from "../../../../domain/messages/automations.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** /admin/automatisations: every automation of the shop with its settings, its next 7 days and its results. */
const getAutomations = (shopId: string, days: number) =>
  unwrap(api.backoffice.shops[":shopId"].automations.$get({ param: { shopId }, query: { days: String(days) } }));
type AutomationsPage = Awaited<ReturnType<typeof getAutomations>>;
export type Automation = AutomationsPage["automations"][number];

export const automationsQueryOptions = (shopId: string, days: number) =>
  queryOptions({ queryKey: messagesKeys.automations(shopId, days), queryFn: () => getAutomations(shopId, days) });

/** Saves one automation; every period's page is read again. */
export function useSaveAutomation(shopId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, settings }: { kind: AutomationKind; settings: AutomationSettings }) =>
      unwrap(api.backoffice.shops[":shopId"].automations[":kind"].$put({ param: { shopId, kind }, json: settings })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: backofficeKeys.part(shopId, "automations") }),
  });
}
