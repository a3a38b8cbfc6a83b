import { afterEach, describe, expect, it, vi } from "vitest";
import { pushSupport } from "./push-device.ts";

const IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1";

function browser({ ua, standalone, push }: { ua: string; standalone: boolean; push: boolean }) {
  vi.stubGlobal("navigator", {
    userAgent: ua,
    platform: "iPhone",
    maxTouchPoints: 5,
    ...(push ? { serviceWorker: {} } : {}),
  });
  vi.stubGlobal("window", { matchMedia: () => ({ matches: standalone }), ...(push ? { PushManager: class {} } : {}) });
  vi.stubGlobal("Notification", push ? class {} : undefined);
}

describe("push on this device", () => {
  afterEach(() => vi.unstubAllGlobals());
  it("on an iPhone not added to the home screen, explains how first", () => {
    browser({ ua: IPHONE, standalone: false, push: false });
    expect(pushSupport()).toBe("ios-not-installed");
  });
  it("on an iPhone whose Fidèle is installed, push is offered", () => {
    browser({ ua: IPHONE, standalone: true, push: true });
    expect(pushSupport()).toBe("supported");
  });
  it("a browser without the Push API is told its messages stay in the app", () => {
    browser({ ua: "Mozilla/5.0 (X11; Linux x86_64)", standalone: false, push: false });
    expect(pushSupport()).toBe("unsupported");
  });
});
