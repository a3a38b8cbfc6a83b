import type { QueryClient } from "@tanstack/react-query";

/** Where scans made with no network wait on the phone (offline-scans.ts keeps and sends them). */
export const OFFLINE_SCANS_KEY = "fidele:offline-scans";

const anyKept = () => {
  try {
    return localStorage.getItem(OFFLINE_SCANS_KEY) !== null;
  } catch {
    return false;
  }
};

/**
 * At start and whenever the network returns. The sender, and the scan code it brings, is loaded only when a visit
 * is waiting: an ordinary start does not download it (the bundle budget of /).
 */
export function startOfflineScans(queryClient: QueryClient) {
  const send = () => {
    if (anyKept()) void import("./offline-scans.ts").then((m) => m.sendOfflineScans(queryClient));
  };
  window.addEventListener("online", send);
  if (navigator.onLine) send();
}
