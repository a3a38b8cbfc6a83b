import type { QueryClient } from "@tanstack/react-query";
import type { ScanCode } from "../../../../domain/loyalty/scan-code.ts";
import { ApiError } from "../../../lib/api-client.ts";
import { OFFLINE_SCANS_KEY } from "./offline-scans-start.ts";
import { postScan, type ScanAnswer } from "./post-scan.ts";
import { endAttempt } from "./scan-keys.ts";
import { SCAN_KEYS } from "./keys.ts";

/**
 * Visits scanned with no network (issue 12): the counter code is kept on the phone (localStorage) with the moment
 * it was scanned and the attempt's idempotency key, and sent as soon as the network returns — by the 'online'
 * event, or at the next start. The server credits it within the code's validity plus the grace the shop sets,
 * dated when it was scanned, and says honestly when it came too late (scan.service.ts, fidele_scan). The shell
 * starts the sending through offline-scans-start.ts, which loads this module only when a scan is waiting.
 */

/** Fired on window when a kept scan got its answer: `detail` is { idempotencyKey, answer }. */
export const OFFLINE_SCAN_SENT = "fidele:offline-scan-sent";

type KeptScan = {
  scanUid: string;
  token: string;
  deviceId?: string;
  idempotencyKey: string;
  offlineAt: string;
};

function read(): KeptScan[] {
  try {
    const kept = JSON.parse(localStorage.getItem(OFFLINE_SCANS_KEY) ?? "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

function write(scans: KeptScan[]) {
  try {
    if (scans.length === 0) localStorage.removeItem(OFFLINE_SCANS_KEY);
    else localStorage.setItem(OFFLINE_SCANS_KEY, JSON.stringify(scans));
  } catch {
    // Storage full or disabled: the scan cannot be kept.
  }
}

/** Keeps a scan that could not be sent (once per attempt: a retry keeps the same key). */
export function keepOfflineScan(scan: KeptScan) {
  write([...read().filter((s) => s.idempotencyKey !== scan.idempotencyKey), scan]);
}

let sending: Promise<void> | null = null;

/** Sends every kept scan; stops at the first one that meets no network (the next 'online' event resumes). */
export function sendOfflineScans(queryClient: QueryClient): Promise<void> {
  sending ??= (async () => {
    for (const scan of read()) {
      let answer: ScanAnswer;
      try {
        answer = await postScan(scan);
      } catch (error) {
        // No network, or signed out (it waits for the next sign-in on this phone): keep it.
        if (error instanceof ApiError && (error.status === 0 || error.status === 401 || error.status >= 500)) return;
        // Refused as malformed: it will never count; drop it rather than retry forever.
        write(read().filter((s) => s.idempotencyKey !== scan.idempotencyKey));
        continue;
      }
      write(read().filter((s) => s.idempotencyKey !== scan.idempotencyKey));
      endAttempt({ scanUid: scan.scanUid, token: scan.token, poster: null } satisfies ScanCode);
      window.dispatchEvent(
        new CustomEvent(OFFLINE_SCAN_SENT, { detail: { idempotencyKey: scan.idempotencyKey, answer } }),
      );
      for (const key of SCAN_KEYS) void queryClient.invalidateQueries({ queryKey: [...key] });
    }
  })().finally(() => {
    sending = null;
  });
  return sending;
}
