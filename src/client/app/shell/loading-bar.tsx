import { useEffect, useRef, useState } from "react";

/** SPEC §2, §9: a 3 px bar, shown only when a navigation lasts longer than 200 ms; 2000 ms is its estimated run. */
export const LOADING_BAR_THROTTLE_MS = 200;
const LOADING_BAR_DURATION_MS = 2000;
const FINISH_MS = 250;

type Phase = "hidden" | "running" | "finishing";

/**
 * The navigation loading bar at the very top. `isNavigating` is the router's navigation state (not idle); a quick
 * navigation never shows the bar, a slow one shows it growing towards 85 % and completing when the page is ready.
 */
export function LoadingBar({ isNavigating }: { isNavigating: boolean }) {
  const [phase, setPhase] = useState<Phase>("hidden");
  const bar = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (isNavigating) {
      const timer = setTimeout(() => setPhase("running"), LOADING_BAR_THROTTLE_MS);
      return () => clearTimeout(timer);
    }
    setPhase((current) => (current === "running" ? "finishing" : current));
  }, [isNavigating]);

  useEffect(() => {
    const element = bar.current;
    if (phase === "running") {
      const animation = element?.animate?.([{ transform: "scaleX(0)" }, { transform: "scaleX(0.85)" }], {
        duration: LOADING_BAR_DURATION_MS,
        easing: "cubic-bezier(0.1, 0.7, 0.3, 1)",
        fill: "forwards",
      });
      // Keep where the bar got to, so that finishing grows it from there.
      return () => {
        animation?.commitStyles?.();
        animation?.cancel();
      };
    }
    if (phase === "finishing") {
      element?.animate?.([{ transform: "scaleX(1)", opacity: 0 }], {
        duration: FINISH_MS,
        easing: "ease-out",
        fill: "forwards",
      });
      const timer = setTimeout(() => setPhase("hidden"), FINISH_MS);
      return () => clearTimeout(timer);
    }
  }, [phase]);

  if (phase === "hidden") return null;
  return (
    <div
      ref={bar}
      role="progressbar"
      aria-label="Chargement de la page"
      className="pointer-events-none fixed inset-x-0 top-0 z-[90] h-[3px] origin-left bg-accent-500 shadow-[0_0_6px_rgba(245,158,11,0.7)]"
      style={{ transform: "scaleX(0)" }}
    />
  );
}
