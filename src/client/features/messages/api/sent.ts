import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { type SenderScope, scopeKey } from "./composer.ts";
import { messagesKeys } from "./keys.ts";

/** What was sent (and is scheduled), with delivered, read, clicked and failed counts. */
const listSent = (scope: SenderScope) =>
  (scope.kind === "shop"
    ? unwrap(api.backoffice.shops[":shopId"].messages.$get({ param: { shopId: scope.shopId } }))
    : unwrap(api.messages.platform.sent.$get())
  ).then((r) => r.messages);
export type SentMessage = Awaited<ReturnType<typeof listSent>>[number];

export const sentQueryOptions = (scope: SenderScope) =>
  queryOptions({
    queryKey: messagesKeys.sent(scopeKey(scope)),
    queryFn: () => listSent(scope),
    // While something is being sent, the bar moves: re-read every 2 s.
    refetchInterval: (query) => (query.state.data?.some((m) => m.status === "sending") ? 2000 : false),
  });

type SentAction = "pause" | "resume" | "cancel";

export function useSentAction(scope: SenderScope) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: SentAction }) =>
      scope.kind === "shop"
        ? unwrap(
            api.backoffice.shops[":shopId"].messages[":id"][":action"].$post({
              param: { shopId: scope.shopId, id, action },
            }),
          )
        : unwrap(api.messages.platform.sent[":id"][":action"].$post({ param: { id, action } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: messagesKeys.sent(scopeKey(scope)) }),
  });
}
