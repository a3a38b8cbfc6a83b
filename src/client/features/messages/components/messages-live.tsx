import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { messagesKeys } from "../api/keys.ts";
import { preferencesQueryOptions } from "../api/preferences.ts";
import { recheckPush } from "../api/push-device.ts";

/** SPEC §9 realtime: the server's heartbeat every 30 s, given up 10 s after a missed one; reconnects after 1, 2, 5, then 10 s. */
export const HEARTBEAT_MS = 30_000;
export const TIMEOUT_MS = 10_000;
const RECONNECT_DELAYS_MS = [1000, 2000, 5000, 10_000] as const;
const EVENTS_URL = "/api/messages/events";

/** The delay before reconnect attempt `n` (0-based): 1, 2, 5, then 10 s for every later one. */
export const reconnectDelay = (attempt: number) =>
  RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)]!;

/**
 * The one live stream of a signed-in app (GET /api/messages/events): the unread
 * count arrives on it, and the inbox is refreshed when it changes. Also the weekly
 * check of this device's push subscription. Renders nothing.
 */
export function MessagesLive() {
  const queryClient = useQueryClient();

  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let attempt = 0;
    let watchdog: ReturnType<typeof setTimeout> | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;

    const reconnect = () => {
      source?.close();
      source = null;
      clearTimeout(watchdog);
      if (stopped) return;
      retry = setTimeout(connect, reconnectDelay(attempt++));
    };
    // Nothing heard for a heartbeat and the time-out (or no answer to the opening in 10 s): the stream is dead.
    const arm = (ms: number) => {
      clearTimeout(watchdog);
      watchdog = setTimeout(reconnect, ms);
    };
    function connect() {
      source = new EventSource(EVENTS_URL);
      arm(TIMEOUT_MS);
      source.onopen = () => arm(HEARTBEAT_MS + TIMEOUT_MS);
      source.onmessage = () => arm(HEARTBEAT_MS + TIMEOUT_MS);
      source.addEventListener("unread", (event) => {
        attempt = 0;
        arm(HEARTBEAT_MS + TIMEOUT_MS);
        const { unread } = JSON.parse((event as MessageEvent<string>).data) as { unread: number };
        const before = queryClient.getQueryData<number>(messagesKeys.unread());
        queryClient.setQueryData(messagesKeys.unread(), unread);
        if (before !== unread) void queryClient.invalidateQueries({ queryKey: messagesKeys.inbox() });
      });
      source.onerror = () => {
        // The browser's own retry waits its own time: ours follows SPEC §9.
        reconnect();
      };
    }
    connect();
    return () => {
      stopped = true;
      clearTimeout(watchdog);
      clearTimeout(retry);
      source?.close();
    };
  }, [queryClient]);

  useEffect(() => {
    const timer = setTimeout(() => {
      queryClient
        .fetchQuery(preferencesQueryOptions())
        .then((prefs) => (prefs.devices.length > 0 ? recheckPush(prefs.vapidPublicKey) : undefined))
        .catch(() => undefined);
    }, 5000);
    return () => clearTimeout(timer);
  }, [queryClient]);

  return null;
}
