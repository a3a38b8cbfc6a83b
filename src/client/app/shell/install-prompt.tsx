import { lazy, Suspense, useSyncExternalStore } from "react";

/**
 * The install prompt (SPEC §4): the browser's `beforeinstallprompt` is kept and a small card offers to install
 * Fidèle. It can be shown, accepted or dismissed; dismissing (the card, or the browser's own dialog) sets a
 * persistent "hide install" flag in local storage, and the card never comes back.
 * https://developer.mozilla.org/docs/Web/API/BeforeInstallPromptEvent
 */
export const HIDE_INSTALL_KEY = "fidele:hide-install";

type InstallState = "idle" | "shown" | "accepted" | "dismissed";

type BeforeInstallPromptEvent = Event & {
  prompt: () => Promise<unknown>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
};

let deferred: BeforeInstallPromptEvent | null = null;
let state: InstallState = "idle";
const listeners = new Set<() => void>();

function setState(next: InstallState) {
  state = next;
  for (const listener of listeners) listener();
}

function isInstallHidden(): boolean {
  try {
    return localStorage.getItem(HIDE_INSTALL_KEY) === "true";
  } catch {
    return false;
  }
}

function hideForGood() {
  try {
    localStorage.setItem(HIDE_INSTALL_KEY, "true");
  } catch {
    // Storage blocked: hidden for this visit only.
  }
}

const isStandalone = () => window.matchMedia("(display-mode: standalone)").matches;

let isCapturing = false;
/** Call before the first render: the browser may fire the event early. */
export function captureInstallPrompt() {
  if (isCapturing) return;
  isCapturing = true;
  window.addEventListener("beforeinstallprompt", (event) => {
    // Always keep the browser's own mini-infobar away: the card is the one way in, and it respects the flag.
    event.preventDefault();
    if (isInstallHidden() || isStandalone() || state === "accepted") return;
    deferred = event as BeforeInstallPromptEvent;
    setState("shown");
  });
  window.addEventListener("appinstalled", () => {
    deferred = null;
    setState("accepted");
  });
}

async function acceptInstall() {
  const event = deferred;
  if (!event) return;
  deferred = null;
  await event.prompt();
  const { outcome } = await event.userChoice;
  if (outcome === "dismissed") hideForGood();
  setState(outcome);
}

function dismissInstall() {
  deferred = null;
  hideForGood();
  setState("dismissed");
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

function useInstallState(): InstallState {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => "idle" as const,
  );
}

// The card itself is loaded only when the browser offers the install.
const InstallCard = lazy(() => import("./install-card.tsx"));

export function InstallPrompt() {
  const current = useInstallState();
  if (current !== "shown") return null;
  return (
    <Suspense fallback={null}>
      <InstallCard onInstall={() => void acceptInstall()} onDismiss={dismissInstall} />
    </Suspense>
  );
}
