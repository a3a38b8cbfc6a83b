import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { getSession } from "../../lib/get-session.ts";
import { meQueryOptions } from "../../lib/me.ts";

export type SessionUpkeepDeps = {
  /** Reads the session (better-auth's get-session also extends it when it is due). */
  getSession: () => Promise<unknown>;
  /** Whether the app currently believes someone is signed in. */
  hasUser: () => boolean;
  /** Re-reads the signed-in user so that the app follows the session (never rejects). */
  refresh: () => Promise<unknown>;
  reload: () => void;
  isOnline: () => boolean;
  isVisible: () => boolean;
};

/**
 * Session upkeep (SPEC §4, §8): when the tab becomes visible again or the network comes back, the session is read
 * and, if there is one (or the app still shows someone signed in), the user is refreshed. A failure logs
 * "Erreur de session:" (visibility) or "Erreur de connexion:" (back online) and reloads the page.
 * A tab that becomes visible while offline waits for the "online" event instead: reading the session cannot work
 * then, and reloading would only show the same offline page.
 * Returns a function that stops listening.
 */
export function startSessionUpkeep(
  target: Pick<Window, "addEventListener" | "removeEventListener">,
  doc: Pick<Document, "addEventListener" | "removeEventListener">,
  deps: SessionUpkeepDeps,
) {
  let inFlight: Promise<void> | null = null;

  const check = (reason: "visibility" | "online") => {
    if (inFlight) return inFlight;
    inFlight = (async () => {
      try {
        const session = await deps.getSession();
        // Not awaited: the next check may start as soon as the session has been read.
        if (session || deps.hasUser()) void deps.refresh();
      } catch (error) {
        console.warn(reason === "online" ? "Erreur de connexion:" : "Erreur de session:", error);
        deps.reload();
      } finally {
        inFlight = null;
      }
    })();
    return inFlight;
  };

  const onVisibilityChange = () => {
    if (deps.isVisible() && deps.isOnline()) void check("visibility");
  };
  const onOnline = () => void check("online");

  doc.addEventListener("visibilitychange", onVisibilityChange);
  target.addEventListener("online", onOnline);
  return () => {
    doc.removeEventListener("visibilitychange", onVisibilityChange);
    target.removeEventListener("online", onOnline);
  };
}

export function useSessionUpkeep() {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      startSessionUpkeep(window, document, {
        getSession,
        hasUser: () => Boolean(queryClient.getQueryData(meQueryOptions().queryKey)),
        refresh: () => queryClient.invalidateQueries({ queryKey: meQueryOptions().queryKey }),
        reload: () => window.location.reload(),
        isOnline: () => navigator.onLine,
        isVisible: () => document.visibilityState === "visible",
      }),
    [queryClient],
  );
}
