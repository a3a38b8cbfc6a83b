/** Every date and number of the back-office, in French (Intl fr-FR, no date library). */
const integer = new Intl.NumberFormat("fr-FR");
const dateLong = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric" });
const dateMedium = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", year: "numeric" });
const dateShort = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short" });
const dateTime = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "short",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
});
const weekdayDate = new Intl.DateTimeFormat("fr-FR", {
  weekday: "short",
  day: "numeric",
  month: "short",
  timeZone: "UTC",
});
const localDateLong = new Intl.DateTimeFormat("fr-FR", {
  day: "numeric",
  month: "long",
  year: "numeric",
  timeZone: "UTC",
});
const localDateShort = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "short", timeZone: "UTC" });

export const formatNumber = (n: number) => integer.format(n);
/** An instant (ISO string) as "12 mars 2026". */
export const formatDate = (iso: string) => dateLong.format(new Date(iso));
/** An instant as "12 mars 2026" in short month form: "12 mars 2026", "21 nov. 2026". */
export const formatDateMedium = (iso: string) => dateMedium.format(new Date(iso));
export const formatDateShort = (iso: string) => dateShort.format(new Date(iso));
/** An instant as "12 mars 2026, 14:05". */
export const formatDateTime = (iso: string) => dateTime.format(new Date(iso));
/** A local date of the shop (YYYY-MM-DD) as "12 mars 2026" (read as a calendar date, not an instant). */
export const formatLocalDate = (date: string) => localDateLong.format(new Date(`${date}T00:00:00Z`));
export const formatLocalDateShort = (date: string) => localDateShort.format(new Date(`${date}T00:00:00Z`));
export const formatLocalWeekdayDate = (date: string) => weekdayDate.format(new Date(`${date}T00:00:00Z`));
/** "09:30" → "9 h 30", "14:00" → "14 h". */
export function formatTime(value: string): string {
  const [h, m] = value.split(":");
  return m === "00" ? `${Number(h)} h` : `${Number(h)} h ${m}`;
}
/** "3 passages", "1 passage". */
export const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${Math.abs(n) > 1 ? many : one}`;
/** A person's name as the shop sees it, or their e-mail, or a neutral word. */
export function personName(p: { firstName: string | null; lastName: string | null; email?: string | null }): string {
  const name = [p.firstName, p.lastName].filter(Boolean).join(" ").trim();
  return name || p.email || "Client sans nom";
}
/** Today as a local date string (browser clock), for date inputs. */
export function todayLocal(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
}
