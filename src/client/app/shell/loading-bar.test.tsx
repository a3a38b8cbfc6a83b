// @vitest-environment jsdom
import { act, cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { LOADING_BAR_THROTTLE_MS, LoadingBar } from "./loading-bar.tsx";

const bar = () => screen.queryByRole("progressbar", { name: "Chargement de la page" });

describe("LoadingBar (SPEC §2, §9)", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it("never shows for a navigation quicker than 200 ms", () => {
    const view = render(<LoadingBar isNavigating={false} />);
    view.rerender(<LoadingBar isNavigating />);
    act(() => vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS - 1));
    view.rerender(<LoadingBar isNavigating={false} />);
    act(() => vi.advanceTimersByTime(5_000));
    expect(bar()).toBeNull();
  });

  it("shows a 3 px bar after 200 ms of navigation, and finishes when the page is ready", () => {
    const view = render(<LoadingBar isNavigating={false} />);
    view.rerender(<LoadingBar isNavigating />);
    act(() => vi.advanceTimersByTime(LOADING_BAR_THROTTLE_MS - 1));
    expect(bar()).toBeNull();
    act(() => vi.advanceTimersByTime(1));
    expect(bar()?.className).toContain("h-[3px]");
    expect(bar()?.className).toContain("top-0");

    view.rerender(<LoadingBar isNavigating={false} />);
    // Completing: still there for its short finish, then gone.
    expect(bar()).not.toBeNull();
    act(() => vi.advanceTimersByTime(300));
    expect(bar()).toBeNull();
  });
});
