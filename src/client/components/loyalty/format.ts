/** French wording of dates and distances on the loyalty screens (Intl fr-FR, no date library). */
const time = new Intl.DateTimeFormat("fr-FR", { hour: "numeric", minute: "2-digit" });
const dayMonth = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long" });
const dayMonthYear = new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric" });
const weekdayDayMonth = new Intl.DateTimeFormat("fr-FR", { weekday: "long", day: "numeric", month: "long" });
const oneDecimal = new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 1 });

const dayKey = (d: Date) => `${d.getFullYear()}-${d.getMonth()}-${d.getDate()}`;
const shiftDays = (d: Date, days: number) => {
  const copy = new Date(d);
  copy.setDate(copy.getDate() + days);
  return copy;
};

/** "14 h 05" */
export function formatTimeFr(date: Date): string {
  return time.format(date).replace(":", " h ");
}

/** A past or future moment, the way people say it: "aujourd'hui à 14 h 05", "hier à …", "demain à …", "12 mars à …". */
export function formatMomentFr(iso: string | Date, now = new Date()): string {
  const date = typeof iso === "string" ? new Date(iso) : iso;
  const at = `à ${formatTimeFr(date)}`;
  if (dayKey(date) === dayKey(now)) return `aujourd'hui ${at}`;
  if (dayKey(date) === dayKey(shiftDays(now, -1))) return `hier ${at}`;
  if (dayKey(date) === dayKey(shiftDays(now, 1))) return `demain ${at}`;
  const inDays = (date.getTime() - now.getTime()) / 86_400_000;
  if (inDays > 0 && inDays < 6) return `${weekdayDayMonth.format(date)} ${at}`;
  return date.getFullYear() === now.getFullYear() ? `le ${dayMonth.format(date)}` : `le ${dayMonthYear.format(date)}`;
}

/** "12 mars 2026" */
export function formatDateFr(iso: string): string {
  return dayMonthYear.format(new Date(iso));
}

/** "à 350 m", "à 2,4 km" */
export function formatDistanceFr(km: number): string {
  if (km < 1) return `à ${Math.max(10, Math.round((km * 1000) / 10) * 10)} m`;
  return `à ${oneDecimal.format(km)} km`;
}
