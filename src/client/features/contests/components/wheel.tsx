import { useEffect, useRef, useState } from "react";
import { wheelArcs, wheelStopAngle } from "../../../../domain/contests/wheel.ts";

const COLOURS = ["#0f766e", "#f59e0b", "#be123c", "#4338ca", "#15803d", "#c2410c", "#0369a1", "#7e22ce"];
const LOSING_COLOUR = "#57534e";
const SPIN_MS = 4200;
const SPIN_EASING = "cubic-bezier(0.12, 0.8, 0.18, 1)";

const prefersReducedMotion = () =>
  typeof window !== "undefined" &&
  typeof window.matchMedia === "function" &&
  window.matchMedia("(prefers-reduced-motion: reduce)").matches;

/**
 * The wheel: each slice as wide as its odds (issue 25 row 3), the last one the losing slice. It turns
 * to the slice the server chose — a CSS transform on the compositor, smooth on a mid-range phone — and calls
 * `onStopped` when it stops. With "reduce motion", it does not spin: it points at the slice at once.
 * Each label turns back by as much as the wheel turns, with the same transition, so every label reads upright at
 * every moment (a label drawn along its slice read upside down in the lower half: « Perdu » most of all).
 */
export function Wheel({
  slices,
  target,
  onStopped,
}: {
  slices: { id: string; label: string; weight: number }[];
  target: number | null;
  onStopped: () => void;
}) {
  const [angle, setAngle] = useState(0);
  const [moving, setMoving] = useState(false);
  const stopped = useRef(onStopped);
  stopped.current = onStopped;
  const arcs = wheelArcs(slices.map((s) => s.weight));
  const weights = slices.map((s) => s.weight).join(",");

  useEffect(() => {
    if (target === null) return;
    const reduced = prefersReducedMotion();
    const jitter = (crypto.getRandomValues(new Uint8Array(1))[0] ?? 128) / 256;
    const next = wheelStopAngle(target, wheelArcs(weights.split(",").map(Number)), reduced ? 0 : 6, jitter);
    setMoving(!reduced);
    setAngle(next);
    const timer = window.setTimeout(
      () => {
        setMoving(false);
        stopped.current();
      },
      reduced ? 50 : SPIN_MS + 100,
    );
    return () => window.clearTimeout(timer);
  }, [target, weights]);

  const transition = moving ? `transform ${SPIN_MS}ms ${SPIN_EASING}` : "none";
  const gradient = arcs
    .map(
      (arc, i) =>
        `${i === slices.length - 1 ? LOSING_COLOUR : COLOURS[i % COLOURS.length]} ${arc.start}deg ${arc.start + arc.size}deg`,
    )
    .join(", ");

  return (
    <div className="relative mx-auto aspect-square w-full max-w-xs" aria-hidden="true">
      <div className="absolute left-1/2 top-0 z-10 -translate-x-1/2 -translate-y-1 text-3xl text-stone-900 drop-shadow dark:text-white">
        ▼
      </div>
      <div
        data-testid="wheel"
        className="size-full rounded-full border-8 border-white shadow-xl ring-1 ring-stone-300 will-change-transform dark:border-stone-800"
        style={{
          background: `conic-gradient(${gradient})`,
          transform: `rotate(${angle}deg)`,
          transition,
        }}
      >
        {slices.map((slice, i) => {
          // A slice of no odds (« Perdu » at 0 %) has no room on the wheel: its label would sit on another slice.
          if (!arcs[i] || arcs[i].size <= 0) return null;
          const middle = arcs[i].start + arcs[i].size / 2;
          return (
            <span
              key={slice.id}
              data-wheel-label=""
              className="absolute left-1/2 top-1/2 w-20 text-center text-xs font-bold leading-tight text-white"
              style={{
                // Out to the slice's middle, then turned back by the slice's angle and the wheel's: upright.
                transform: `translate(-50%, -50%) rotate(${middle}deg) translateY(-5.25rem) rotate(${-(middle + angle)}deg)`,
                transition,
              }}
            >
              {slice.label}
            </span>
          );
        })}
      </div>
    </div>
  );
}
