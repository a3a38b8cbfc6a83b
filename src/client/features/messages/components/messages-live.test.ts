import { describe, expect, it } from "vitest";
import { HEARTBEAT_MS, reconnectDelay, TIMEOUT_MS } from "./messages-live.tsx";

describe("the live stream's timing (SPEC §9 realtime)", () => {
  it("reconnects after 1, 2, 5, then 10 s every time", () => {
    expect([0, 1, 2, 3, 4, 9].map(reconnectDelay)).toEqual([1000, 2000, 5000, 10_000, 10_000, 10_000]);
  });
  it("waits a 30 s heartbeat, and gives up 10 s after a missed one", () => {
    expect(HEARTBEAT_MS).toBe(30_000);
    expect(TIMEOUT_MS).toBe(10_000);
  });
});
