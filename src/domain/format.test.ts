import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatHourMinute,
  formatLocalDate,
  formatMinutes,
  formatList,
  formatNumber,
  formatPeriod,
  personName,
  plural,
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
  it("says durations in words", () => {
    expect(formatMinutes(15)).toBe("15 minutes");
    expect(formatMinutes(60)).toBe("1 heure");
    expect(formatMinutes(150)).toBe("2 h 30");
    expect(formatMinutes(2880)).toBe("2 jours");
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
});
