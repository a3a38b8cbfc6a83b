/**
 * The one French formatting module (fr-FR): numbers, amounts, dates, periods and plurals, for the
 * server and the web app alike. Formatters are built once, at module level: building an
 * `Intl.*` object costs far more than using one, and some of these run on hot paths.
 * No `new Intl.` anywhere else in `src` (checked by `npm run lint`).
 */
import { WEEKDAYS_FR } from "./loyalty/hours.ts";
import { daysBetween, formatMinutesFr, localParts } from "./loyalty/time.ts";

const integer = new Intl.NumberFormat("fr-FR");
const signed = new Intl.NumberFormat("fr-FR", { signDisplay: "exceptZero" });
const oneDecimal = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });
const coordinate = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 5 });
const fixedOneDecimal = new Intl.NumberFormat("fr-FR", { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const euros = new Intl.NumberFormat("fr-FR", { style: "currency", currency: "EUR" });
const percent = new Intl.NumberFormat("fr-FR", { style: "percent", maximumFractionDigits: 0 });
const pluralRules = new Intl.PluralRules("fr-FR");
const conjunction = new Intl.ListFormat("fr-FR", { type: "conjunction" });

const dateLong = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric" });
const dateMedium = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", year: "numeric" });
const dateShort = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short" });
const dayMonth = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long" });
const dateTime = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const clockHm = new Intl.DateTimeFormat("fr-FR", { hour: "numeric", minute: "2-digit" });
const clockDigits = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit" });
const clockHms = new Intl.DateTimeFormat("fr-FR", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
// Calendar dates (YYYY-MM-DD, a shop's local day) are read at UTC midnight and shown in UTC,
// so that the browser's own time zone can never move them by a day.
const utcDateLong = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const utcDateShort = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", timeZone: "UTC" });
const utcDayMonth = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", timeZone: "UTC" });
const utcMonthYear = new Intl.DateTimeFormat("fr-FR", { month: "long", year: "numeric", timeZone: "UTC" });

// Formatters for a given time zone, built once per zone: a server writing for a person (a file, an e-mail) cannot
// rely on its own zone, which is the host's.
const dateTimeInZone = new Map<string, Intl.DateTimeFormat>();
const dateTimeIn = (tz: string) => {
  let f = dateTimeInZone.get(tz);
  if (!f) {
    f = new Intl.DateTimeFormat("fr-FR", { dateStyle: "long", timeStyle: "short", timeZone: tz });
    dateTimeInZone.set(tz, f);
  }
  return f;
};

const asDate = (value: string | Date) => (typeof value === "string" ? new Date(value) : value);
const calendar = (date: string) => new Date(`${date.slice(0, 10)}T00:00:00Z`);

// ── numbers ──────────────────────────────────────────────────────────────────────────────
/** "12 500" (narrow no-break space as the thousands separator). */
export const formatNumber = (n: number) => integer.format(n);
/** "+3", "−2", "0". */
export const formatSigned = (n: number) => signed.format(n);
/** "2,4" */
export const formatDecimal = (n: number) => oneDecimal.format(n);
/** "45,76404" (a latitude or longitude, or metres, to five decimals at most). */
export const formatCoordinate = (n: number) => coordinate.format(n);
/** "4,0" (always one decimal, for ratings). */
export const formatRating = (n: number) => fixedOneDecimal.format(n);
/** "12,50 €" */
export const formatEuros = (n: number) => euros.format(n);
/** "12 %" (a ratio, 0.12). */
export const formatPercent = (ratio: number) => percent.format(ratio);
/** "3 Ko" */
export const formatKilobytes = (bytes: number) => `${integer.format(Math.round(bytes / 1024))} Ko`;
/** "le pain, le café et la tarte" */
export const formatList = (items: string[]) => conjunction.format(items);

// ── plurals and agreement ────────────────────────────────────────────────────────────────
/**
 * French plural choice through Intl.PluralRules: 0 and 1 are singular in French
 * ("0 tampon", "1 tampon", "2 tampons"), and so is 1,5.
 */
export const isPlural = (n: number) => pluralRules.select(Math.abs(n)) !== "one";
/** The word alone: pluralWord(3, "tampon", "tampons") → "tampons". */
export const pluralWord = (n: number, one: string, many: string) => (isPlural(n) ? many : one);
/** The number and its word: plural(3, "passage", "passages") → "3 passages". */
export const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${pluralWord(n, one, many)}`;

export type CardMode = "points" | "stamps";
/** The unit word of a card: "tampon(s)" or "point(s)". */
export const unitWord = (mode: CardMode, n: number) =>
  mode === "stamps" ? pluralWord(n, "tampon", "tampons") : pluralWord(n, "point", "points");
/** "1 tampon", "20 points", "-5 points". */
export const formatAmount = (mode: CardMode, n: number) => `${formatNumber(n)} ${unitWord(mode, n)}`;

// ── dates and times ──────────────────────────────────────────────────────────────────────
/** An instant as "12 mars 2026" (browser or server time zone). */
export const formatDate = (value: string | Date) => dateLong.format(asDate(value));
/** "21 nov. 2026" */
export const formatDateMedium = (value: string | Date) => dateMedium.format(asDate(value));
/** "21 nov." */
export const formatDateShort = (value: string | Date) => dateShort.format(asDate(value));
/** "21 novembre" */
export const formatDayMonth = (value: string | Date) => dayMonth.format(asDate(value));
/** "12 mars 2026, 14:05" */
export const formatDateTime = (value: string | Date) => dateTime.format(asDate(value));
/** "12 mars 2026 à 14:05" in the time zone `tz` (IANA), whatever the host's. */
export const formatDateTimeIn = (value: string | Date, tz: string) => dateTimeIn(tz).format(asDate(value));
/** "14 h 05" */
export const formatClock = (value: string | Date) => clockHm.format(asDate(value)).replace(":", " h ");
/** "09:05" (two digits each). */
export const formatTimeOfDay = (value: string | Date) => clockDigits.format(asDate(value));
/** "14:05:09" (a ticking clock). */
export const formatClockSeconds = (value: string | Date) => clockHms.format(asDate(value));
/** A shop's calendar date (YYYY-MM-DD) as "12 mars 2026". */
export const formatLocalDate = (date: string) => utcDateLong.format(calendar(date));
/** A calendar date as "12 mars". */
export const formatLocalDateShort = (date: string) => utcDateShort.format(calendar(date));
/** A calendar date as "12 mars" with the long month. */
export const formatLocalDayMonth = (date: string) => utcDayMonth.format(calendar(date));

/** A calendar date's month: "novembre 2026". */
export const formatLocalMonth = (date: string) => utcMonthYear.format(calendar(date));
/** A wall-clock time "09:30" as "9 h 30", "14:00" as "14 h". */
export function formatHourMinute(value: string): string {
  const [h, m] = value.split(":");
  return m === "00" ? `${Number(h)} h` : `${Number(h)} h ${m}`;
}

// The device's time zone (the browser's), for a moment shown without a shop's.
const deviceTimeZone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
const utcWeekdayDayMonth = new Intl.DateTimeFormat("fr-FR", {
  weekday: "long",
  day: "numeric",
  month: "long",
  timeZone: "UTC",
});

/**
 * A moment the way people say it: "aujourd'hui à 14 h 05", "hier à …", "demain à …", "jeudi 12 mars à 9 h 00" in
 * the coming week, else "le 12 mars" ("le 12 mars 2025" in another year). Its day and clock are `timeZone`'s: a
 * shop's when the server speaks for the shop (a cooldown, the wheel's next turn), the device's by default.
 */
export function formatMoment(value: string | Date, now = new Date(), timeZone = deviceTimeZone): string {
  const target = localParts(asDate(value), timeZone);
  const today = localParts(now, timeZone).date;
  const days = daysBetween(today, target.date);
  const at = `à ${formatMinutesFr(target.minutes)}`;
  if (days === 0) return `aujourd'hui ${at}`;
  if (days === -1) return `hier ${at}`;
  if (days === 1) return `demain ${at}`;
  if (days > 1 && days < 7) return `${utcWeekdayDayMonth.format(calendar(target.date))} ${at}`;
  return `le ${target.date.slice(0, 4) === today.slice(0, 4) ? formatLocalDayMonth(target.date) : formatLocalDate(target.date)}`;
}

/**
 * How long ago, for a screen that updates itself (the counter tablet's last visits): "à l'instant", "il y a 5 min",
 * "il y a 2 h" the same day and up to 6 hours back, then as formatMoment says it ("hier à 18 h 05").
 */
export function formatAgo(value: string | Date, now = new Date(), timeZone = deviceTimeZone): string {
  const minutes = Math.floor((now.getTime() - asDate(value).getTime()) / 60_000);
  if (minutes < 1) return "à l'instant";
  if (minutes < 60) return `il y a ${formatNumber(minutes)} min`;
  if (minutes < 6 * 60) return `il y a ${formatNumber(Math.floor(minutes / 60))} h`;
  return formatMoment(value, now, timeZone);
}

/** A duration in minutes as "15 minutes", "1 heure", "2 h 30", "3 jours". */
export function formatMinutes(minutes: number): string {
  if (minutes < 60) return plural(minutes, "minute", "minutes");
  if (minutes % 1440 === 0) return plural(minutes / 1440, "jour", "jours");
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return m === 0 ? plural(h, "heure", "heures") : `${h} h ${String(m).padStart(2, "0")}`;
}

/** "à 350 m", "à 2,4 km" */
export function formatDistance(km: number): string {
  if (km < 1) return `à ${Math.max(10, Math.round((km * 1000) / 10) * 10)} m`;
  return `à ${oneDecimal.format(km)} km`;
}

/** Today (or a moment) as the browser's calendar date, "2026-03-12", for date inputs. */
export function localIsoDate(date = new Date()): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, "0")}-${String(date.getDate()).padStart(2, "0")}`;
}

// ── names and periods ────────────────────────────────────────────────────────────────────
/** A person's name as the shop sees it, or their e-mail, or a neutral word. */
export function personName(p: { firstName: string | null; lastName: string | null; email?: string | null }): string {
  const name = [p.firstName, p.lastName].filter(Boolean).join(" ").trim();
  return name || p.email || "Client sans nom";
}

/**
 * A person as a screen in the shop shows them to everyone there (the counter tablet): first name and initial,
 * "Camille D.", never the whole name; "Un client" without a name.
 */
export function shortPersonName(p: { firstName: string | null; lastName: string | null }): string {
  const first = p.firstName?.trim() ?? "";
  const initial = p.lastName?.trim().charAt(0).toUpperCase() ?? "";
  if (!first) return initial ? `${initial}.` : "Un client";
  return initial ? `${first} ${initial}.` : first;
}

/** "Du 1 décembre 2025 au 24 décembre 2025 · le samedi et dimanche · de 14 h à 16 h" (days 1 = Monday … 7). */
export function formatPeriod(p: {
  startDate: string | null;
  endDate: string | null;
  weekdays: readonly number[];
  startTime: string | null;
  endTime: string | null;
}): string {
  const dates =
    p.startDate && p.endDate
      ? p.startDate === p.endDate
        ? `Le ${formatLocalDate(p.startDate)}`
        : `Du ${formatLocalDate(p.startDate)} au ${formatLocalDate(p.endDate)}`
      : p.startDate
        ? `À partir du ${formatLocalDate(p.startDate)}`
        : p.endDate
          ? `Jusqu'au ${formatLocalDate(p.endDate)}`
          : "Sans date de fin";
  const days =
    p.weekdays.length === 0 || p.weekdays.length === 7
      ? "tous les jours"
      : `le ${formatList(p.weekdays.map((d) => WEEKDAYS_FR[d - 1] ?? ""))}`;
  const hours =
    p.startTime && p.endTime
      ? `de ${formatHourMinute(p.startTime)} à ${formatHourMinute(p.endTime)}`
      : "toute la journée";
  return `${dates} · ${days} · ${hours}`;
}

/** A French phrase made to start a line: "lundi" → "Lundi", "du 3 au 5 mai" → "Du 3 au 5 mai". */
export const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
