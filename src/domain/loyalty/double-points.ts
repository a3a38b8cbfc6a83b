import { addDays, localParts, parseTime, weekdayOf } from "./time.ts";

/**
 * A double-points period: optional dates (local, inclusive), optional weekdays
 * (ISO 1–7; empty = every day), optional time window (an end not after the start
 * runs past midnight and belongs to the day it starts on), a multiplier.
 * When several periods match, the highest multiplier wins; they never stack.
 */
export type DoublePointsPeriod = {
  id: string;
  label: string;
  startDate: string | null;
  endDate: string | null;
  weekdays: number[];
  startTime: string | null;
  endTime: string | null;
  multiplier: number;
  isActive: boolean;
};

function dayMatches(p: DoublePointsPeriod, date: string): boolean {
  if (p.startDate && date < p.startDate) return false;
  if (p.endDate && date > p.endDate) return false;
  return p.weekdays.length === 0 || p.weekdays.includes(weekdayOf(date));
}

/** Does the period cover the local moment (date, minutes)? */
function periodCovers(p: DoublePointsPeriod, date: string, minutes: number): boolean {
  if (!p.isActive) return false;
  if (!p.startTime || !p.endTime) return dayMatches(p, date);
  const start = parseTime(p.startTime);
  const end = parseTime(p.endTime);
  if (end > start) return dayMatches(p, date) && start <= minutes && minutes < end;
  // Overnight window: today's evening part, or yesterday's after-midnight part.
  if (minutes >= start && dayMatches(p, date)) return true;
  return minutes < end && dayMatches(p, addDays(date, -1));
}

type Multiplier = { multiplier: number; period: DoublePointsPeriod | null };

export function multiplierAt(periods: readonly DoublePointsPeriod[], instant: Date, tz: string): Multiplier {
  const { date, minutes } = localParts(instant, tz);
  let best: Multiplier = { multiplier: 1, period: null };
  for (const p of periods) {
    if (p.multiplier > best.multiplier && periodCovers(p, date, minutes)) best = { multiplier: p.multiplier, period: p };
  }
  return best;
}

/** Is the period over for good (its end date passed)? */
export function isPeriodOver(p: DoublePointsPeriod, instant: Date, tz: string): boolean {
  return p.endDate !== null && p.endDate < localParts(instant, tz).date;
}
