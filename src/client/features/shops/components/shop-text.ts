import { WEEKDAYS_FR } from "../../../../domain/loyalty/hours.ts";
import { formatMinutesFr, parseTime } from "../../../../domain/loyalty/time.ts";
import { formatAmount, formatLocalDayMonth, plural } from "../../../../domain/format.ts";

const localDate = formatLocalDayMonth;

/** "du 12 au 15 août", "le 14 juillet". */
export function dateRangeFr(start: string, end: string): string {
  return start === end ? `le ${localDate(start)}` : `du ${localDate(start)} au ${localDate(end)}`;
}

type Period = { label: string; startDate: string | null; endDate: string | null; weekdays: number[]; startTime: string | null; endTime: string | null; multiplier: number };

/** "le samedi et le dimanche, de 9 h 00 à 12 h 00, jusqu'au 30 juin": when a double-points period applies. */
export function periodWhenFr(p: Period): string {
  const parts: string[] = [];
  if (p.weekdays.length > 0 && p.weekdays.length < 7) {
    const days = p.weekdays.map((d) => `le ${WEEKDAYS_FR[d - 1]}`);
    parts.push(days.length === 1 ? days[0]! : `${days.slice(0, -1).join(", ")} et ${days.at(-1)}`);
  } else {
    parts.push("tous les jours");
  }
  if (p.startTime && p.endTime) parts.push(`de ${formatMinutesFr(parseTime(p.startTime))} à ${formatMinutesFr(parseTime(p.endTime))}`);
  if (p.startDate && p.endDate) parts.push(dateRangeFr(p.startDate, p.endDate));
  else if (p.startDate) parts.push(`à partir du ${localDate(p.startDate)}`);
  else if (p.endDate) parts.push(`jusqu'au ${localDate(p.endDate)}`);
  return parts.join(", ");
}

const timeFr = (value: string) => (value === "24:00" ? "minuit" : formatMinutesFr(parseTime(value)));

/** "9 h 00 – 12 h 30, 14 h 00 – 19 h 00", "Ouvert 24 h/24", or "Fermé", for one day (midnight spelled out). */
export function dayHoursFr(ranges: readonly { open: string; close: string }[]): string {
  if (ranges.length === 0) return "Fermé";
  if (ranges.length === 1 && ranges[0]!.open === "00:00" && ranges[0]!.close === "24:00") return "Ouvert 24 h/24";
  return ranges.map((r) => `${timeFr(r.open)} – ${timeFr(r.close)}`).join(", ");
}

/** "04 78 00 00 00" → "+33478000000" for a tel: link. */
export function telHref(phone: string): string {
  const digits = phone.replace(/\D/g, "");
  return `tel:${digits.startsWith("0") ? `+33${digits.slice(1)}` : digits}`;
}

/** The shop's card rules as short French sentences. */
export function rulesListFr(rules: { mode: "stamps" | "points"; stampsGoal: number; pointsPerVisit: number; cooldownMinutes: number; dailyCap: number }): string[] {
  const items: string[] = [];
  if (rules.mode === "stamps") {
    items.push(`Un tampon à chaque passage : la carte est complète à ${rules.stampsGoal} tampons.`);
  } else {
    items.push(`${formatAmount("points", rules.pointsPerVisit)} à chaque passage.`);
  }
  if (rules.cooldownMinutes > 0) {
    const h = Math.floor(rules.cooldownMinutes / 60);
    const m = rules.cooldownMinutes % 60;
    const delay = [h ? `${h} h` : "", m ? `${m} min` : ""].filter(Boolean).join(" ");
    items.push(`Un passage est crédité au plus toutes les ${delay}.`);
  }
  items.push(`Au plus ${plural(rules.dailyCap, "passage crédité", "passages crédités")} par jour.`);
  items.push("Pour que votre passage compte, scannez le code affiché au comptoir.");
  return items;
}
