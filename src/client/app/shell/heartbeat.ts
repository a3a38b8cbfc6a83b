import { useEffect } from "react";
import { api, unwrap } from "../../lib/api-client.ts";

/** SPEC §7.1, §9: last_seen is written at start and every 60 000 ms while someone is signed in and the app is open. */
const HEARTBEAT_INTERVAL_MS = 60_000;

const sendHeartbeat = () => {
  // Offline, the beat would only fail: the next one after the network returns records the visit.
  if (!navigator.onLine) return;
  // The browser's time zone names the session's approximate place on /admin/sessions (ADR 0028).
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  unwrap(api.accounts.heartbeat.$post(undefined, { headers: { "x-time-zone": timeZone } })).catch((error: unknown) =>
    console.warn("Heartbeat non enregistré :", error),
  );
};

export function useHeartbeat(isSignedIn: boolean) {
  useEffect(() => {
    if (!isSignedIn) return;
    sendHeartbeat();
    const timer = setInterval(sendHeartbeat, HEARTBEAT_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [isSignedIn]);
}
