import { addDays, formatMinutesFr, type LocalParts, localParts, parseTime, weekdayOf } from "./time.ts";

/**
 * Opening hours. A day holds up to four ranges ("09:00"–"12:30", "14:00"–"19:00":
 * the gap is the break). A range whose close is not after its open runs past
 * midnight ("20:00"–"02:00") and belongs to the day it starts on. An exceptional
 * closure covers whole local dates and closes every range that starts on them.
 */
export type TimeRange = { open: string; close: string };
/** Seven days, index 0 = Monday … 6 = Sunday. */
export type WeeklyHours = TimeRange[][];
export type Closure = { startDate: string; endDate: string; reason: string };

export const WEEKDAYS_FR = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"] as const;

type Interval = { start: number; end: number };

/** Minutes of a range relative to the start of its own day; overnight ends past 1440. */
function rangeMinutes(range: TimeRange): Interval {
  const start = parseTime(range.open);
  let end = parseTime(range.close);
  if (end <= start) end += 1440;
  return { start, end };
}

export function closureOn(closures: readonly Closure[], date: string): Closure | undefined {
  return closures.find((c) => c.startDate <= date && date <= c.endDate);
}

function hasHours(weekly: WeeklyHours): boolean {
  return weekly.some((day) => day.length > 0);
}

/** Opening intervals from the day before `today` to `days` days after, in minutes from today's midnight. */
function intervalsAround(weekly: WeeklyHours, closures: readonly Closure[], today: string, days: number): Interval[] {
  const out: Interval[] = [];
  for (let offset = -1; offset <= days; offset++) {
    const date = addDays(today, offset);
    if (closureOn(closures, date)) continue;
    for (const range of weekly[weekdayOf(date) - 1] ?? []) {
      const { start, end } = rangeMinutes(range);
      out.push({ start: offset * 1440 + start, end: offset * 1440 + end });
    }
  }
  out.sort((a, b) => a.start - b.start);
  // Touching ranges (22:00–24:00 then 00:00–02:00) are one opening.
  const merged: Interval[] = [];
  for (const i of out) {
    const last = merged.at(-1);
    if (last && i.start <= last.end) last.end = Math.max(last.end, i.end);
    else merged.push({ ...i });
  }
  return merged;
}

type OpenState = {
  isOpen: boolean;
  /** The closure in force today, when there is one. */
  closure: Closure | null;
  /** When open: when it closes; when closed: when it next opens (within a week). */
  change: { date: string; minutes: number } | null;
  hasHours: boolean;
};

function toLocal(today: string, abs: number): { date: string; minutes: number } {
  const dayOffset = Math.floor(abs / 1440);
  return { date: addDays(today, dayOffset), minutes: abs - dayOffset * 1440 };
}

export function openStateAt(weekly: WeeklyHours, closures: readonly Closure[], instant: Date, tz: string): OpenState {
  const now = localParts(instant, tz);
  return openStateAtLocal(weekly, closures, now);
}

function openStateAtLocal(weekly: WeeklyHours, closures: readonly Closure[], now: LocalParts): OpenState {
  const any = hasHours(weekly);
  const intervals = intervalsAround(weekly, closures, now.date, 8);
  const current = intervals.find((i) => i.start <= now.minutes && now.minutes < i.end);
  const closure = closureOn(closures, now.date) ?? null;
  if (current) return { isOpen: true, closure, change: toLocal(now.date, current.end), hasHours: any };
  const next = intervals.find((i) => i.start > now.minutes);
  return { isOpen: false, closure, change: next ? toLocal(now.date, next.start) : null, hasHours: any };
}

/** "Ouvert · ferme à 19 h 00", "Fermé · ouvre demain à 9 h 00", "Fermeture exceptionnelle (Congés)". */
export function openLabelFr(state: OpenState, today: string): string {
  if (!state.hasHours) return "Horaires non renseignés";
  const when = (c: { date: string; minutes: number }) => {
    const diff = Math.round((Date.parse(`${c.date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
    const time = formatMinutesFr(c.minutes);
    if (diff === 0) return `à ${time}`;
    if (diff === 1) return `demain à ${time}`;
    return `${WEEKDAYS_FR[weekdayOf(c.date) - 1]} à ${time}`;
  };
  if (state.isOpen) return state.change ? `Ouvert maintenant · ferme ${when(state.change)}` : "Ouvert maintenant";
  const prefix = state.closure
    ? `Fermeture exceptionnelle${state.closure.reason ? ` (${state.closure.reason})` : ""}`
    : "Fermé";
  return state.change ? `${prefix} · ouvre ${when(state.change)}` : prefix;
}

/**
 * A scan "far outside opening hours": the shop has hours, and the instant is more
 * than `marginMinutes` away from every opening (closed days count as outside).
 * Staff may well be in early; only the far cases are worth a look.
 */
export function isFarOutsideHours(
  weekly: WeeklyHours,
  closures: readonly Closure[],
  instant: Date,
  tz: string,
  marginMinutes = 60,
): boolean {
  if (!hasHours(weekly)) return false;
  const now = localParts(instant, tz);
  const intervals = intervalsAround(weekly, closures, now.date, 1);
  return !intervals.some((i) => i.start - marginMinutes <= now.minutes && now.minutes < i.end + marginMinutes);
}

/** "9 h 00 – 12 h 30, 14 h 00 – 19 h 00" or "Fermé", for one day. */
export function dayHoursLabelFr(ranges: readonly TimeRange[]): string {
  if (ranges.length === 0) return "Fermé";
  return ranges.map((r) => `${formatMinutesFr(parseTime(r.open))} – ${formatMinutesFr(parseTime(r.close))}`).join(", ");
}

/** Ranges of a day must not overlap one another (overnight ones included). */
export function rangesOverlap(ranges: readonly TimeRange[]): boolean {
  const sorted = ranges.map(rangeMinutes).sort((a, b) => a.start - b.start);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i]!.start < sorted[i - 1]!.end) return true;
  }
  return false;
}
