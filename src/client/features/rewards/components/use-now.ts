import { useEffect, useState } from "react";

/** The current time, re-read every `everyMs` (a clock, a countdown). */
export function useNow(everyMs = 1000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

/** "04:59": minutes and seconds left (hours folded into minutes: "125:00"). */
export function formatMinutesSeconds(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${String(minutes).padStart(2, "0")}:${String(seconds).padStart(2, "0")}`;
}

/** "4 minutes et 59 secondes", for screen readers. */
export function minutesSecondsFr(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  const m = minutes > 0 ? `${minutes} minute${minutes > 1 ? "s" : ""}` : "";
  const s = `${seconds} seconde${seconds > 1 ? "s" : ""}`;
  return m ? `${m} et ${s}` : s;
}
