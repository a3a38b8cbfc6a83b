// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { captureInstallPrompt, HIDE_INSTALL_KEY, InstallPrompt } from "./install-prompt.tsx";

function offerInstall(outcome: "accepted" | "dismissed") {
  const prompt = vi.fn(async () => {});
  const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
    prompt,
    userChoice: Promise.resolve({ outcome }),
  });
  act(() => {
    window.dispatchEvent(event);
  });
  return { event, prompt };
}

const card = () => screen.queryByRole("region", { name: "Installer Fidèle" });

describe("InstallPrompt (SPEC §4)", () => {
  beforeAll(() => {
    // jsdom has no matchMedia: the app is not running installed.
    window.matchMedia = ((query: string) => ({ matches: false, media: query })) as unknown as typeof window.matchMedia;
    captureInstallPrompt();
  });
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(() => {
    cleanup();
  });

  it("keeps the browser's event and shows the card; dismissing sets the persistent flag", async () => {
    render(<InstallPrompt />);
    expect(card()).toBeNull();
    const { event, prompt } = offerInstall("accepted");
    expect(event.defaultPrevented).toBe(true);
    await screen.findByRole("region", { name: "Installer Fidèle" });

    fireEvent.click(screen.getByRole("button", { name: "Non merci" }));
    expect(card()).toBeNull();
    expect(localStorage.getItem(HIDE_INSTALL_KEY)).toBe("true");
    expect(prompt).not.toHaveBeenCalled();

    // Never again, even when the browser offers once more.
    const again = offerInstall("accepted");
    expect(again.event.defaultPrevented).toBe(true);
    expect(card()).toBeNull();
  });

  it("accepting opens the browser's dialog; an accepted install sets no flag", async () => {
    render(<InstallPrompt />);
    const { prompt } = offerInstall("accepted");
    await screen.findByRole("region", { name: "Installer Fidèle" });
    await act(async () => {
      fireEvent.click(screen.getByRole("button", { name: "Installer" }));
    });
    expect(prompt).toHaveBeenCalledTimes(1);
    expect(card()).toBeNull();
    expect(localStorage.getItem(HIDE_INSTALL_KEY)).toBeNull();
  });
});
