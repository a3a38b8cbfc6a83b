import { describe, expect, it } from "vitest";
import { type Closure, dayHoursLabelFr, isFarOutsideHours, openLabelFr, openStateAt, rangesOverlap, type WeeklyHours } from "./hours.ts";

const TZ = "Europe/Paris";
// Monday…Sunday. Tuesday to Saturday with a lunch break; Friday night past midnight; closed Sunday and Monday.
const week: WeeklyHours = [
  [],
  [
    { open: "09:00", close: "12:30" },
    { open: "14:00", close: "19:00" },
  ],
  [
    { open: "09:00", close: "12:30" },
    { open: "14:00", close: "19:00" },
  ],
  [
    { open: "09:00", close: "12:30" },
    { open: "14:00", close: "19:00" },
  ],
  [
    { open: "09:00", close: "12:30" },
    { open: "20:00", close: "02:00" },
  ],
  [{ open: "10:00", close: "18:00" }],
  [],
];
// Paris local time (winter, UTC+1) → instant.
const paris = (local: string) => new Date(`${local}:00+01:00`);

describe("ouvert maintenant", () => {
  it("is open inside a range and says when it closes", () => {
    const state = openStateAt(week, [], paris("2026-03-10T10:00"), TZ); // Tuesday
    expect(state.isOpen).toBe(true);
    expect(state.change).toEqual({ date: "2026-03-10", minutes: 12 * 60 + 30 });
    expect(openLabelFr(state, "2026-03-10")).toBe("Ouvert maintenant · ferme à 12 h 30");
  });

  it("is closed during the lunch break and reopens after it", () => {
    const state = openStateAt(week, [], paris("2026-03-10T13:00"), TZ);
    expect(state.isOpen).toBe(false);
    expect(openLabelFr(state, "2026-03-10")).toBe("Fermé · ouvre à 14 h 00");
  });

  it("closing time itself is closed; opening time is open", () => {
    expect(openStateAt(week, [], paris("2026-03-10T19:00"), TZ).isOpen).toBe(false);
    expect(openStateAt(week, [], paris("2026-03-10T09:00"), TZ).isOpen).toBe(true);
  });

  it("an overnight range stays open after midnight, into the next day", () => {
    const saturdayNight = openStateAt(week, [], paris("2026-03-14T01:30"), TZ); // Saturday 01:30, from Friday's 20:00–02:00
    expect(saturdayNight.isOpen).toBe(true);
    expect(saturdayNight.change).toEqual({ date: "2026-03-14", minutes: 120 });
    expect(openStateAt(week, [], paris("2026-03-14T02:00"), TZ).isOpen).toBe(false);
    expect(openStateAt(week, [], paris("2026-03-13T23:00"), TZ).isOpen).toBe(true);
  });

  it("after Saturday closing, the next opening is Tuesday", () => {
    const state = openStateAt(week, [], paris("2026-03-14T19:00"), TZ);
    expect(state.isOpen).toBe(false);
    expect(state.change).toEqual({ date: "2026-03-17", minutes: 9 * 60 });
    expect(openLabelFr(state, "2026-03-14")).toBe("Fermé · ouvre mardi à 9 h 00");
  });

  it("says 'demain' for tomorrow", () => {
    const state = openStateAt(week, [], paris("2026-03-10T20:00"), TZ);
    expect(openLabelFr(state, "2026-03-10")).toBe("Fermé · ouvre demain à 9 h 00");
  });

  it("an exceptional closure closes the whole day and is named", () => {
    const closures: Closure[] = [{ startDate: "2026-03-10", endDate: "2026-03-11", reason: "Inventaire" }];
    const state = openStateAt(week, closures, paris("2026-03-10T10:00"), TZ);
    expect(state.isOpen).toBe(false);
    expect(state.closure?.reason).toBe("Inventaire");
    expect(state.change).toEqual({ date: "2026-03-12", minutes: 9 * 60 });
    expect(openLabelFr(state, "2026-03-10")).toBe("Fermeture exceptionnelle (Inventaire) · ouvre jeudi à 9 h 00");
  });

  it("a closure on Saturday does not cut Friday night's range short", () => {
    const closures: Closure[] = [{ startDate: "2026-03-14", endDate: "2026-03-14", reason: "" }];
    expect(openStateAt(week, closures, paris("2026-03-14T01:00"), TZ).isOpen).toBe(true);
    expect(openStateAt(week, closures, paris("2026-03-14T11:00"), TZ).isOpen).toBe(false);
  });

  it("touching ranges across midnight are one opening", () => {
    const nonstop: WeeklyHours = [[{ open: "18:00", close: "24:00" }], [{ open: "00:00", close: "03:00" }], [], [], [], [], []];
    const state = openStateAt(nonstop, [], paris("2026-03-09T23:00"), TZ); // Monday
    expect(state.change).toEqual({ date: "2026-03-10", minutes: 180 });
  });

  it("uses the shop's time zone across the summer time change", () => {
    // 2026-03-29 is the spring-forward Sunday; Monday 30th at 09:30 Paris = 07:30 UTC.
    const mondays: WeeklyHours = [[{ open: "09:00", close: "10:00" }], [], [], [], [], [], []];
    expect(openStateAt(mondays, [], new Date("2026-03-30T07:30:00Z"), TZ).isOpen).toBe(true);
    expect(openStateAt(mondays, [], new Date("2026-03-30T08:30:00Z"), TZ).isOpen).toBe(false);
  });

  it("without hours, says so", () => {
    const state = openStateAt([[], [], [], [], [], [], []], [], paris("2026-03-10T10:00"), TZ);
    expect(openLabelFr(state, "2026-03-10")).toBe("Horaires non renseignés");
  });
});

describe("scans far outside opening hours", () => {
  it("flags only beyond the margin, and closed days", () => {
    expect(isFarOutsideHours(week, [], paris("2026-03-10T08:30"), TZ)).toBe(false); // 30 min early
    expect(isFarOutsideHours(week, [], paris("2026-03-10T19:45"), TZ)).toBe(false); // 45 min late
    expect(isFarOutsideHours(week, [], paris("2026-03-10T03:00"), TZ)).toBe(true);
    expect(isFarOutsideHours(week, [], paris("2026-03-16T11:00"), TZ)).toBe(true); // Monday, closed
    expect(isFarOutsideHours(week, [], paris("2026-03-14T02:30"), TZ)).toBe(false); // just after Friday night
    expect(isFarOutsideHours([[], [], [], [], [], [], []], [], paris("2026-03-10T03:00"), TZ)).toBe(false);
  });
});

describe("hours input", () => {
  it("finds overlapping ranges, overnight included", () => {
    expect(rangesOverlap([{ open: "09:00", close: "12:00" }, { open: "11:00", close: "13:00" }])).toBe(true);
    expect(rangesOverlap([{ open: "09:00", close: "12:00" }, { open: "12:00", close: "13:00" }])).toBe(false);
    expect(rangesOverlap([{ open: "20:00", close: "02:00" }, { open: "23:00", close: "23:30" }])).toBe(true);
  });
  it("labels a day", () => {
    expect(dayHoursLabelFr(week[1]!)).toBe("9 h 00 – 12 h 30, 14 h 00 – 19 h 00");
    expect(dayHoursLabelFr([])).toBe("Fermé");
  });
});
