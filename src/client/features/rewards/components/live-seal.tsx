import type { ReactNode } from "react";
import { useNow } from "./use-now.ts";
import { formatClockSeconds } from "../../../../domain/format.ts";

/**
 * What makes the validation screen impossible to fake with a screenshot: a colour ring turning around the code, a
 * pulsing "en direct" dot, and the time of day ticking every second. Staff glance at it: a frozen ring or clock is
 * a picture. With reduced motion asked for, nothing turns or pulses, but the clock still changes every second.
 */
export function LiveSeal({ children }: { children: ReactNode }) {
  const now = useNow(1000);
  return (
    <div className="flex flex-col items-center gap-3">
      <div
        className="relative w-full max-w-[18rem] overflow-hidden rounded-[2rem] p-2 shadow-xl"
        data-testid="live-seal"
      >
        <div
          aria-hidden="true"
          className="absolute -inset-1/2 motion-safe:animate-[spin_3.5s_linear_infinite]"
          style={{
            background: "conic-gradient(from 0deg, #0f766e, #14b8a6, #fbbf24, #f97316, #db2777, #7c3aed, #0f766e)",
          }}
        />
        <div className="relative aspect-square rounded-[1.6rem] bg-white p-2">{children}</div>
      </div>
      <p className="flex items-center gap-2 rounded-full bg-stone-900 px-4 py-1.5 text-white shadow dark:bg-stone-800">
        <span className="relative flex size-3" aria-hidden="true">
          <span className="absolute inline-flex size-full rounded-full bg-red-400 opacity-75 motion-safe:animate-ping" />
          <span className="relative inline-flex size-3 rounded-full bg-red-500" />
        </span>
        <span className="text-xs font-bold uppercase tracking-widest">En direct</span>
        <time
          className="font-mono text-lg font-bold tabular-nums"
          dateTime={new Date(now).toISOString()}
          data-testid="live-clock"
        >
          {formatClockSeconds(new Date(now))}
        </time>
      </p>
    </div>
  );
}
