import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isPushMessage, showForegroundNotification } from "./foreground-notification.ts";

class FakeNotification extends EventTarget {
  static permission: NotificationPermission = "granted";
  static created: FakeNotification[] = [];
  closed = 0;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    super();
    FakeNotification.created.push(this);
  }
  close() {
    this.closed += 1;
    this.dispatchEvent(new Event("close"));
  }
}

describe("showForegroundNotification (SPEC §4, §9)", () => {
  let hasFocus = true;
  const focus = vi.fn();
  beforeEach(() => {
    vi.useFakeTimers();
    hasFocus = true;
    FakeNotification.permission = "granted";
    FakeNotification.created = [];
    focus.mockClear();
    vi.stubGlobal("Notification", FakeNotification);
    vi.stubGlobal("document", { hasFocus: () => hasFocus });
    vi.stubGlobal("window", { focus });
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it("shows the title and body with the app icon and the foreground tag, and closes it after 5 s", () => {
    const shown = showForegroundNotification({
      title: "Double points",
      body: "Aujourd'hui seulement",
    }) as unknown as FakeNotification;
    expect(FakeNotification.created).toHaveLength(1);
    expect(shown.title).toBe("Double points");
    expect(shown.options).toEqual({
      body: "Aujourd'hui seulement",
      icon: "/pwa-192x192.png",
      tag: "foreground-notification",
    });
    vi.advanceTimersByTime(4_999);
    expect(shown.closed).toBe(0);
    vi.advanceTimersByTime(1);
    expect(shown.closed).toBe(1);
  });

  it("closes on click and focuses the window", () => {
    const shown = showForegroundNotification({ title: "T", body: "B" }) as unknown as FakeNotification;
    shown.dispatchEvent(new Event("click"));
    expect(shown.closed).toBe(1);
    expect(focus).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(shown.closed).toBe(1);
  });

  it("shows nothing without focus or without permission", () => {
    hasFocus = false;
    expect(showForegroundNotification({ title: "T", body: "B" })).toBeNull();
    hasFocus = true;
    FakeNotification.permission = "default";
    expect(showForegroundNotification({ title: "T", body: "B" })).toBeNull();
    expect(FakeNotification.created).toHaveLength(0);
  });
});

describe("isPushMessage", () => {
  it("accepts the worker's push message only", () => {
    expect(isPushMessage({ type: "push", title: "T", body: "B" })).toBe(true);
    expect(isPushMessage({ type: "SKIP_WAITING" })).toBe(false);
    expect(isPushMessage({ type: "push", title: 1, body: "B" })).toBe(false);
    expect(isPushMessage(null)).toBe(false);
  });
});
