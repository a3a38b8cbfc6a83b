import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { OVERLAY_REMOVAL_DELAY_MS, watchMobileOnly } from "./mobile-only-overlay.tsx";

function setup(initialWidth: number) {
  let width = initialWidth;
  let onResize: () => void = () => {};
  const changes: boolean[] = [];
  const stop = watchMobileOnly(
    () => width,
    (isShown) => changes.push(isShown),
    (listener) => {
      onResize = listener;
      return () => {
        onResize = () => {};
      };
    },
  );
  const resize = (next: number) => {
    width = next;
    onResize();
  };
  return { changes, resize, stop };
}

describe("watchMobileOnly (SPEC §1, §9)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("shows the overlay at once wider than 1280 px, never at 1280 px or less", () => {
    expect(setup(1281).changes).toEqual([true]);
    expect(setup(1280).changes).toEqual([false]);
    const phone = setup(390);
    vi.advanceTimersByTime(60_000);
    expect(phone.changes).toEqual([false]);
  });

  it("removes it 15 s after the window became narrow enough, not before", () => {
    const { changes, resize } = setup(1440);
    resize(1024);
    vi.advanceTimersByTime(OVERLAY_REMOVAL_DELAY_MS - 1);
    expect(changes).toEqual([true]);
    vi.advanceTimersByTime(1);
    expect(changes).toEqual([true, false]);
  });

  it("keeps it when the window is wide again when the 15 s are up", () => {
    const { changes, resize } = setup(1440);
    resize(1024);
    vi.advanceTimersByTime(5_000);
    resize(1440);
    vi.advanceTimersByTime(60_000);
    expect(changes).toEqual([true]);
    // A later narrowing starts a fresh 15 s wait.
    resize(800);
    vi.advanceTimersByTime(14_000);
    expect(changes).toEqual([true]);
    vi.advanceTimersByTime(1_000);
    expect(changes).toEqual([true, false]);
  });

  it("does not restart the wait on every resize while narrow", () => {
    const { changes, resize } = setup(1440);
    resize(1000);
    vi.advanceTimersByTime(10_000);
    resize(900);
    vi.advanceTimersByTime(5_000);
    expect(changes).toEqual([true, false]);
  });

  it("shows it again at once when the window widens after removal", () => {
    const { changes, resize } = setup(1440);
    resize(390);
    vi.advanceTimersByTime(OVERLAY_REMOVAL_DELAY_MS);
    resize(1300);
    expect(changes).toEqual([true, false, true]);
  });

  it("stops watching (and cancels a pending removal)", () => {
    const { changes, resize, stop } = setup(1440);
    resize(390);
    stop();
    vi.advanceTimersByTime(OVERLAY_REMOVAL_DELAY_MS);
    resize(1440);
    expect(changes).toEqual([true]);
  });
});
