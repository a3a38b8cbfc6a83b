import { queryOptions, useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** GET /api/messages/:id: one of my messages (404 when it is not mine). */
const getMessage = (id: string) => unwrap(api.messages[":id"].$get({ param: { id } })).then((r) => r.message);
export const messageQueryOptions = (id: string) =>
  queryOptions({ queryKey: messagesKeys.message(id), queryFn: () => getMessage(id) });

/** POST /api/messages/:id/read: opening it reads it; the count and the inbox follow. */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => unwrap(api.messages[":id"].read.$post({ param: { id } })),
    onSuccess: ({ unread }) => {
      queryClient.setQueryData(messagesKeys.unread(), unread);
      void queryClient.invalidateQueries({ queryKey: messagesKeys.inbox() });
    },
  });
}

/** POST /api/messages/:id/click: the message's link was followed, or its notification tapped. */
export const markClicked = (id: string) =>
  unwrap(api.messages[":id"].click.$post({ param: { id } })).catch(() => undefined);
