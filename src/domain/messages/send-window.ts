import getJoursFeries from "@socialgouv/jours-feries";
import { addDays, formatMinutesFr, localParts, parseTime, zonedToUtc } from "../loyalty/time.ts";

/**
 * When marketing SMS may leave: French operators' code of conduct (FFTélécoms) and the
 * CNIL ask for no commercial SMS at night, on Sundays or on public holidays. Default:
 * Monday to Saturday, 08:00–20:00 Europe/Paris, not on French public holidays; the
 * operator changes it by environment (SMS_SEND_DAYS, SMS_SEND_HOURS, SMS_SEND_ON_HOLIDAYS,
 * SMS_TIMEZONE). A marketing SMS due outside the window waits for its next opening.
 */
export type SendWindow = {
  /** ISO weekdays (1 = Monday … 7 = Sunday). */
  days: number[];
  /** Minutes since local midnight: from (inclusive) to (exclusive). */
  from: number;
  to: number;
  timeZone: string;
  /** Whether French public holidays are allowed (false: held until the next working day). */
  onHolidays: boolean;
};

export const DEFAULT_SEND_WINDOW: SendWindow = {
  days: [1, 2, 3, 4, 5, 6],
  from: 8 * 60,
  to: 20 * 60,
  timeZone: "Europe/Paris",
  onHolidays: false,
};

/** "1-6" or "1,2,3,4,5" → ISO weekdays; null when malformed. */
export function parseDays(value: string): number[] | null {
  const days = new Set<number>();
  for (const part of value.split(",").map((s) => s.trim())) {
    const range = /^([1-7])(?:-([1-7]))?$/.exec(part);
    if (!range) return null;
    const a = Number(range[1]);
    const b = Number(range[2] ?? range[1]);
    if (b < a) return null;
    for (let d = a; d <= b; d++) days.add(d);
  }
  return [...days].sort();
}

/** "08:00-20:00" → minutes; null when malformed or empty. */
export function parseHours(value: string): { from: number; to: number } | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)-([01]\d|2[0-4]):([0-5]\d)$/.exec(value.trim());
  if (!m) return null;
  const from = parseTime(`${m[1]}:${m[2]}`);
  const to = parseTime(`${m[3]}:${m[4]}`);
  return to > from && to <= 1440 ? { from, to } : null;
}

const holidaysByYear = new Map<number, Set<string>>();
const pad = (n: number) => String(n).padStart(2, "0");

/** French public holidays (metropolitan) of a year, as local ISO dates. */
function frenchHolidays(year: number): Set<string> {
  let set = holidaysByYear.get(year);
  if (!set) {
    set = new Set();
    for (const day of Object.values(getJoursFeries(year) as Record<string, Date>)) {
      // The library builds local midnights (+ n × 24 h): half a day later is the same date in any zone.
      const d = new Date(day.getTime() + 12 * 3600_000);
      set.add(`${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`);
    }
    holidaysByYear.set(year, set);
  }
  return set;
}

function isHoliday(date: string): boolean {
  return frenchHolidays(Number(date.slice(0, 4))).has(date);
}

function dayAllowed(date: string, weekday: number, w: SendWindow): boolean {
  return w.days.includes(weekday) && (w.onHolidays || !isHoliday(date));
}

export function isWindowOpen(now: Date, w: SendWindow = DEFAULT_SEND_WINDOW): boolean {
  const p = localParts(now, w.timeZone);
  return dayAllowed(p.date, p.weekday, w) && p.minutes >= w.from && p.minutes < w.to;
}

/** `now` when the window is open, else the instant it next opens. */
export function nextWindowOpening(now: Date, w: SendWindow = DEFAULT_SEND_WINDOW): Date {
  if (isWindowOpen(now, w)) return now;
  const p = localParts(now, w.timeZone);
  // Today, if the window has not opened yet; else the next allowed day (a year covers any rule).
  if (p.minutes < w.from && dayAllowed(p.date, p.weekday, w)) return zonedToUtc(p.date, w.from, w.timeZone);
  for (let i = 1; i <= 366; i++) {
    const date = addDays(p.date, i);
    const weekday = ((p.weekday - 1 + i) % 7) + 1;
    if (dayAllowed(date, weekday, w)) return zonedToUtc(date, w.from, w.timeZone);
  }
  throw new Error("SMS send window never opens");
}

const WEEKDAYS_FR = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"];

/** "du lundi au samedi, de 8 h 00 à 20 h 00, hors jours fériés" (days as ISO weekdays). */
export function describeWindowFr(w: Pick<SendWindow, "days" | "from" | "to" | "onHolidays">): string {
  const days = [...w.days].sort();
  const contiguous = days.length > 1 && days.every((d, i) => i === 0 || d === days[i - 1]! + 1);
  const names = days.map((d) => WEEKDAYS_FR[d - 1]!);
  const dayText =
    days.length === 7
      ? "tous les jours"
      : contiguous
        ? `du ${names[0]} au ${names.at(-1)}`
        : days.length === 1
          ? `le ${names[0]}`
          : `les ${names.slice(0, -1).join(", ")} et ${names.at(-1)}`;
  const hours = `de ${formatMinutesFr(w.from)} à ${formatMinutesFr(w.to)}`;
  return `${dayText}, ${hours}${w.onHolidays ? "" : ", hors jours fériés"}`;
}
