import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { messagesKeys } from "./keys.ts";

/** GET /api/messages/inbox: my messages, newest first, and how many are unread. */
const getInbox = () => unwrap(api.messages.inbox.$get());

export const inboxQueryOptions = () =>
  queryOptions({ queryKey: messagesKeys.inbox(), queryFn: getInbox, staleTime: 30_000 });

/** GET /api/messages/unread: the count in the header (kept fresh by the live stream). */
const getUnread = () => unwrap(api.messages.unread.$get()).then((r) => r.unread);
const unreadQueryOptions = () =>
  queryOptions({ queryKey: messagesKeys.unread(), queryFn: getUnread, staleTime: 60_000 });
export const useUnread = (enabled: boolean) => useQuery({ ...unreadQueryOptions(), enabled });
