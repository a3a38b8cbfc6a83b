/**
 * Wall-clock helpers for a shop's time zone, on Intl only (no date library:
 * CONVENTIONS rule 1). Local dates are ISO strings (YYYY-MM-DD), local times are
 * minutes since local midnight, weekdays are ISO (1 = Monday … 7 = Sunday).
 */

/** The zone a date is written in for a person when nothing says theirs (Fidèle's shops are in France). */
export const DEFAULT_TIMEZONE = "Europe/Paris";
export type LocalParts = { date: string; weekday: number; minutes: number };

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(tz: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("en-CA", {
      timeZone: tz,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    partsFormatters.set(tz, f);
  }
  return f;
}

function rawParts(instant: Date, tz: string) {
  const out: Record<string, number> = {};
  for (const p of partsFormatter(tz).formatToParts(instant)) {
    if (p.type !== "literal") out[p.type] = Number(p.value);
  }
  return out as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

const pad = (n: number, w = 2) => String(n).padStart(w, "0");

/** ISO weekday (1 = Monday) of a local date string. */
export function weekdayOf(date: string): number {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The last answer per time zone: a scan asks for the same minute several times, and formatToParts is slow. */
const lastParts = new Map<string, { minute: number; parts: Readonly<LocalParts> }>();

/** The local date, weekday and minute of an instant in `tz`. */
export function localParts(instant: Date, tz: string): Readonly<LocalParts> {
  // Whole minutes: every zone's offset today is a whole number of minutes, so the answer holds for the minute.
  const minute = Math.floor(instant.getTime() / 60_000);
  const last = lastParts.get(tz);
  if (last && last.minute === minute) return last.parts;
  const p = rawParts(instant, tz);
  const date = `${pad(p.year, 4)}-${pad(p.month)}-${pad(p.day)}`;
  const parts = Object.freeze({ date, weekday: weekdayOf(date), minutes: p.hour * 60 + p.minute });
  if (Number.isFinite(minute)) lastParts.set(tz, { minute, parts });
  return parts;
}

/** A local date shifted by `days`. */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `a` to `b` (local dates). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Offset of `tz` from UTC at an instant, in minutes (Paris in winter: 60). */
function offsetMinutes(instantMs: number, tz: string): number {
  const p = rawParts(new Date(instantMs), tz);
  const asUtc = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second);
  return Math.round((asUtc - Math.floor(instantMs / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the wall clock of `tz` shows `date` + `minutes`. In the
 * hour skipped by a spring-forward change the later instant is returned.
 */
export function zonedToUtc(date: string, minutes: number, tz: string): Date {
  const [y, m, d] = date.split("-").map(Number) as [number, number, number];
  const guess = Date.UTC(y, m - 1, d, 0, minutes);
  let offset = offsetMinutes(guess - 0, tz);
  let result = guess - offset * 60_000;
  const second = offsetMinutes(result, tz);
  if (second !== offset) {
    offset = second;
    result = guess - offset * 60_000;
  }
  return new Date(result);
}

/** "HH:MM" → minutes since midnight ("24:00" → 1440). */
export function parseTime(value: string): number {
  const [h, m] = value.split(":").map(Number) as [number, number];
  return h * 60 + m;
}

/** Minutes → "9 h 05" (French style for people). */
export function formatMinutesFr(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${Math.floor(m / 60)} h ${pad(m % 60)}`;
}

/** Is `tz` a time zone Intl knows? */
export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("fr-FR", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const shortDateTimeFr = new Map<string, Intl.DateTimeFormat>();

/** "12/03/2026 15:42": an instant in the time zone `tz`. */
export function formatShortDateTimeIn(instant: Date, tz: string): string {
  let f = shortDateTimeFr.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("fr-FR", { timeZone: tz, dateStyle: "short", timeStyle: "short" });
    shortDateTimeFr.set(tz, f);
  }
  return f.format(instant).replace(",", "");
}
