import { describe, expect, it } from "vitest";
import {
  formatAmount,
  formatHourMinute,
  formatLocalDate,
  formatMinutes,
  formatNumber,
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
