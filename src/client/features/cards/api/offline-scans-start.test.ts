import type { QueryClient } from "@tanstack/react-query";
import { afterEach, describe, expect, it, vi } from "vitest";
import { OFFLINE_SCANS_KEY, startOfflineScans } from "./offline-scans-start.ts";

const { sendOfflineScans } = vi.hoisted(() => ({ sendOfflineScans: vi.fn(async () => undefined) }));
vi.mock("./offline-scans.ts", () => ({ sendOfflineScans }));

function phone({ online, kept }: { online: boolean; kept: boolean }) {
  const listeners = new Map<string, () => void>();
  const store = new Map<string, string>(kept ? [[OFFLINE_SCANS_KEY, "[{}]"]] : []);
  vi.stubGlobal("navigator", { onLine: online });
  vi.stubGlobal("localStorage", { getItem: (k: string) => store.get(k) ?? null });
  vi.stubGlobal("window", { addEventListener: (name: string, cb: () => void) => listeners.set(name, cb) });
  return { goOnline: () => listeners.get("online")?.() };
}

const client = {} as QueryClient;
// The sender is imported on demand: let the import settle.
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe("scans kept with no network, at start", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    sendOfflineScans.mockClear();
  });

  it("sends what this phone kept at once when online", async () => {
    phone({ online: true, kept: true });
    startOfflineScans(client);
    await settle();
    expect(sendOfflineScans).toHaveBeenCalledWith(client);
  });

  it("with nothing kept, neither sends nor loads the sender", async () => {
    const p = phone({ online: true, kept: false });
    startOfflineScans(client);
    p.goOnline();
    await settle();
    expect(sendOfflineScans).not.toHaveBeenCalled();
  });

  it("offline, waits for the network to return", async () => {
    const p = phone({ online: false, kept: true });
    startOfflineScans(client);
    await settle();
    expect(sendOfflineScans).not.toHaveBeenCalled();
    p.goOnline();
    await settle();
    expect(sendOfflineScans).toHaveBeenCalledTimes(1);
  });
});
