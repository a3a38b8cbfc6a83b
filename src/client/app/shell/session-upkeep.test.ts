import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type SessionUpkeepDeps, startSessionUpkeep } from "./session-upkeep.ts";

function setup(overrides: Partial<SessionUpkeepDeps> = {}) {
  const win = new EventTarget();
  const doc = new EventTarget();
  const deps = {
    getSession: vi.fn(async (): Promise<unknown> => ({ session: { expiresAt: "2030-01-01" } })),
    hasUser: vi.fn(() => true),
    refresh: vi.fn(async () => {}),
    reload: vi.fn(),
    isOnline: vi.fn(() => true),
    isVisible: vi.fn(() => true),
    ...overrides,
  };
  const stop = startSessionUpkeep(win as unknown as Window, doc as unknown as Document, deps);
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
  return {
    deps,
    stop,
    becomeVisible: async () => {
      doc.dispatchEvent(new Event("visibilitychange"));
      await settle();
    },
    comeOnline: async () => {
      win.dispatchEvent(new Event("online"));
      await settle();
    },
  };
}

describe("startSessionUpkeep (SPEC §4, §8)", () => {
  let warn: ReturnType<typeof vi.spyOn>;
  beforeEach(() => {
    warn = vi.spyOn(console, "warn").mockImplementation(() => {});
  });
  afterEach(() => {
    warn.mockRestore();
  });

  it("reads the session and refreshes the user when the tab becomes visible again", async () => {
    const { deps, becomeVisible } = setup();
    await becomeVisible();
    expect(deps.getSession).toHaveBeenCalledTimes(1);
    expect(deps.refresh).toHaveBeenCalledTimes(1);
    expect(deps.reload).not.toHaveBeenCalled();
  });

  it("does the same when the network comes back", async () => {
    const { deps, comeOnline } = setup();
    await comeOnline();
    expect(deps.getSession).toHaveBeenCalledTimes(1);
    expect(deps.refresh).toHaveBeenCalledTimes(1);
  });

  it("refreshes nothing for a visitor with no session", async () => {
    const { deps, becomeVisible } = setup({ getSession: vi.fn(async () => null), hasUser: vi.fn(() => false) });
    await becomeVisible();
    expect(deps.getSession).toHaveBeenCalledTimes(1);
    expect(deps.refresh).not.toHaveBeenCalled();
  });

  it("refreshes the user when the session ended elsewhere, so the app signs out", async () => {
    const { deps, becomeVisible } = setup({ getSession: vi.fn(async () => null), hasUser: vi.fn(() => true) });
    await becomeVisible();
    expect(deps.refresh).toHaveBeenCalledTimes(1);
  });

  it("logs 'Erreur de session:' and reloads when reading fails on visibility", async () => {
    const error = new Error("503");
    const { deps, becomeVisible } = setup({ getSession: vi.fn(async () => Promise.reject(error)) });
    await becomeVisible();
    expect(warn).toHaveBeenCalledWith("Erreur de session:", error);
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it("logs 'Erreur de connexion:' and reloads when reading fails once back online", async () => {
    const error = new Error("network");
    const { deps, comeOnline } = setup({ getSession: vi.fn(async () => Promise.reject(error)) });
    await comeOnline();
    expect(warn).toHaveBeenCalledWith("Erreur de connexion:", error);
    expect(deps.reload).toHaveBeenCalledTimes(1);
  });

  it("ignores a hidden tab, and a visible one while offline (the online event follows)", async () => {
    const hidden = setup({ isVisible: vi.fn(() => false) });
    await hidden.becomeVisible();
    expect(hidden.deps.getSession).not.toHaveBeenCalled();
    const offline = setup({ isOnline: vi.fn(() => false) });
    await offline.becomeVisible();
    expect(offline.deps.getSession).not.toHaveBeenCalled();
  });

  it("reads once when both events arrive together", async () => {
    let resolve: (value: unknown) => void = () => {};
    const getSession = vi.fn(() => new Promise((r) => (resolve = r)));
    const { deps, becomeVisible, comeOnline } = setup({ getSession });
    await becomeVisible();
    await comeOnline();
    resolve({ session: {} });
    await new Promise((r) => setTimeout(r, 0));
    expect(deps.getSession).toHaveBeenCalledTimes(1);
    expect(deps.refresh).toHaveBeenCalledTimes(1);
  });

  it("stops listening", async () => {
    const { deps, stop, becomeVisible, comeOnline } = setup();
    stop();
    await becomeVisible();
    await comeOnline();
    expect(deps.getSession).not.toHaveBeenCalled();
  });
});
