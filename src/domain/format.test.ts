import { describe, expect, it } from "vitest";
import {
  formatAgo,
  formatAmount,
  formatDateTimeIn,
  formatHourMinute,
  formatLocalDate,
  formatMinutes,
  formatList,
  formatMoment,
  formatNumber,
  formatPeriod,
  personName,
  plural,
  shortPersonName,
  pluralWord,
} from "./format.ts";

describe("French formatting", () => {
  it("agrees plurals the French way: 0 and 1 singular, 2 and more plural", () => {
    expect(plural(0, "tampon", "tampons")).toBe("0 tampon");
    expect(plural(1, "tampon", "tampons")).toBe("1 tampon");
    expect(plural(2, "tampon", "tampons")).toBe("2 tampons");
    expect(pluralWord(1.5, "point", "points")).toBe("point");
    expect(formatAmount("stamps", 1)).toBe("1 tampon");
    expect(formatAmount("points", 12500)).toBe(`${formatNumber(12500)} points`);
  });
  it("reads calendar dates without moving them by a time zone", () => {
    expect(formatLocalDate("2026-03-12")).toBe("12 mars 2026");
    expect(formatHourMinute("09:30")).toBe("9 h 30");
    expect(formatHourMinute("14:00")).toBe("14 h");
  });
  it("writes an instant in the zone asked for, whatever the host's (a server writing for a person in France)", () => {
    expect(formatDateTimeIn("2026-03-12T13:05:00Z", "Europe/Paris")).toBe("12 mars 2026 à 14:05");
    expect(formatDateTimeIn(new Date("2026-07-01T22:30:00Z"), "Europe/Paris")).toBe("2 juillet 2026 à 00:30");
  });
  it("says durations in words", () => {
    expect(formatMinutes(15)).toBe("15 minutes");
    expect(formatMinutes(60)).toBe("1 heure");
    expect(formatMinutes(150)).toBe("2 h 30");
    expect(formatMinutes(2880)).toBe("2 jours");
  });
  it("says a moment the way people do, in a shop's time zone or the device's", () => {
    const now = new Date("2026-03-10T10:00:00Z");
    const paris = (iso: string) => formatMoment(new Date(iso), now, "Europe/Paris");
    expect(paris("2026-03-10T14:05:00Z")).toBe("aujourd'hui à 15 h 05");
    expect(paris("2026-03-09T08:00:00Z")).toBe("hier à 9 h 00");
    expect(paris("2026-03-10T23:30:00Z")).toBe("demain à 0 h 30");
    expect(paris("2026-03-12T08:00:00Z")).toBe("jeudi 12 mars à 9 h 00");
    expect(paris("2026-03-20T08:00:00Z")).toBe("le 20 mars");
    expect(paris("2025-12-24T08:00:00Z")).toBe("le 24 décembre 2025");
    // The same instant is already tomorrow in Tokyo.
    expect(formatMoment(new Date("2026-03-10T16:00:00Z"), now, "Asia/Tokyo")).toBe("demain à 1 h 00");
    expect(formatMoment(new Date(2026, 2, 10, 8, 5), new Date(2026, 2, 10, 12))).toBe("aujourd'hui à 8 h 05");
  });
});

describe("back-office wording", () => {
  it("describes a double-points period in French", () => {
    expect(
      formatPeriod({
        startDate: "2030-01-01",
        endDate: "2030-06-30",
        weekdays: [2, 4],
        startTime: "14:00",
        endTime: "17:30",
      }),
    ).toBe("Du 1 janvier 2030 au 30 juin 2030 · le mardi et jeudi · de 14 h à 17 h 30");
    expect(
      formatPeriod({ startDate: "2030-12-24", endDate: "2030-12-24", weekdays: [], startTime: null, endTime: null }),
    ).toBe("Le 24 décembre 2030 · tous les jours · toute la journée");
    expect(
      formatPeriod({
        startDate: null,
        endDate: "2031-02-01",
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        startTime: null,
        endTime: null,
      }),
    ).toBe("Jusqu'au 1 février 2031 · tous les jours · toute la journée");
    expect(formatPeriod({ startDate: null, endDate: null, weekdays: [6], startTime: "09:05", endTime: "12:00" })).toBe(
      "Sans date de fin · le samedi · de 9 h 05 à 12 h",
    );
  });

  it("joins lists, counts and names the French way", () => {
    expect(formatList([])).toBe("");
    expect(formatList(["lundi"])).toBe("lundi");
    expect(formatList(["lundi", "mardi", "mercredi"])).toBe("lundi, mardi et mercredi");
    expect(plural(1, "passage", "passages")).toBe("1 passage");
    expect(plural(1500, "passage", "passages")).toBe("1\u202f500 passages");
    expect(formatHourMinute("08:00")).toBe("8 h");
    expect(personName({ firstName: "Léa", lastName: null, email: "lea@example.fr" })).toBe("Léa");
    expect(personName({ firstName: null, lastName: null, email: "lea@example.fr" })).toBe("lea@example.fr");
    expect(personName({ firstName: null, lastName: null, email: null })).toBe("Client sans nom");
  });

  it("says how long ago for a live screen, then hands over to formatMoment; names a person by first name and initial", () => {
    const now = new Date("2026-03-10T15:00:00Z");
    const ago = (ms: number) => formatAgo(new Date(now.getTime() - ms), now, "Europe/Paris");
    expect(ago(20_000)).toBe("à l'instant");
    expect(ago(-5_000)).toBe("à l'instant");
    expect(ago(2 * 60_000)).toBe("il y a 2 min");
    expect(ago(59 * 60_000 + 59_000)).toBe("il y a 59 min");
    expect(ago(3 * 3_600_000 + 60_000)).toBe("il y a 3 h");
    expect(ago(7 * 3_600_000)).toBe("aujourd'hui à 9 h 00");
    expect(ago(24 * 3_600_000)).toBe("hier à 16 h 00");
    expect(shortPersonName({ firstName: "Camille", lastName: "durand" })).toBe("Camille D.");
    expect(shortPersonName({ firstName: " Nour ", lastName: null })).toBe("Nour");
    expect(shortPersonName({ firstName: null, lastName: "Haddad" })).toBe("H.");
    expect(shortPersonName({ firstName: null, lastName: null })).toBe("Un client");
  });
});
