import { WEEKDAYS_FR } from "../../../../domain/loyalty/hours.ts";
import { formatLocalDate, formatTime } from "../../../components/back-office/format.ts";

/** "a, b et c". */
export function listFr(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? "") : `${items.slice(0, -1).join(", ")} et ${items.at(-1)}`;
}

/** "Du 1 décembre 2025 au 24 décembre 2025 · le samedi et dimanche · de 14 h à 16 h". */
export function describePeriod(p: {
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
      : `le ${listFr(p.weekdays.map((d) => WEEKDAYS_FR[d - 1] ?? ""))}`;
  const hours =
    p.startTime && p.endTime ? `de ${formatTime(p.startTime)} à ${formatTime(p.endTime)}` : "toute la journée";
  return `${dates} · ${days} · ${hours}`;
}
