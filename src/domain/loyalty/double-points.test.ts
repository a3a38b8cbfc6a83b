import { describe, expect, it } from "vitest";
import { type DoublePointsPeriod, isPeriodOver, multiplierAt } from "./double-points.ts";

const TZ = "Europe/Paris";
const paris = (local: string) => new Date(`${local}:00+01:00`);
const period = (p: Partial<DoublePointsPeriod>): DoublePointsPeriod => ({
  id: p.id ?? "p",
  label: p.label ?? "Opération",
  startDate: null,
  endDate: null,
  weekdays: [],
  startTime: null,
  endTime: null,
  multiplier: 2,
  isActive: true,
  ...p,
});

describe("double-points windows", () => {
  it("applies within its dates, inclusive, and not outside", () => {
    const p = period({ startDate: "2026-03-10", endDate: "2026-03-12" });
    expect(multiplierAt([p], paris("2026-03-09T23:59"), TZ).multiplier).toBe(1);
    expect(multiplierAt([p], paris("2026-03-10T00:00"), TZ).multiplier).toBe(2);
    expect(multiplierAt([p], paris("2026-03-12T23:59"), TZ).multiplier).toBe(2);
    expect(multiplierAt([p], paris("2026-03-13T00:00"), TZ).multiplier).toBe(1);
  });

  it("applies on its weekdays and hours only (happy hour on Wednesdays 16–18 h)", () => {
    const p = period({ weekdays: [3], startTime: "16:00", endTime: "18:00", multiplier: 3 });
    expect(multiplierAt([p], paris("2026-03-11T16:00"), TZ)).toMatchObject({ multiplier: 3, period: { id: "p" } });
    expect(multiplierAt([p], paris("2026-03-11T17:59"), TZ).multiplier).toBe(3);
    expect(multiplierAt([p], paris("2026-03-11T18:00"), TZ).multiplier).toBe(1);
    expect(multiplierAt([p], paris("2026-03-10T17:00"), TZ).multiplier).toBe(1); // Tuesday
  });

  it("an overnight window belongs to the day it starts on", () => {
    const p = period({ weekdays: [5], startTime: "22:00", endTime: "02:00" }); // Friday night
    expect(multiplierAt([p], paris("2026-03-13T23:00"), TZ).multiplier).toBe(2);
    expect(multiplierAt([p], paris("2026-03-14T01:00"), TZ).multiplier).toBe(2); // Saturday 01:00, Friday's window
    expect(multiplierAt([p], paris("2026-03-14T23:00"), TZ).multiplier).toBe(1); // Saturday night: not a Friday
    expect(multiplierAt([p], paris("2026-03-13T01:00"), TZ).multiplier).toBe(1); // Friday 01:00: Thursday's night
  });

  it("uses the shop's clock, not UTC", () => {
    const p = period({ startTime: "08:00", endTime: "09:00" });
    expect(multiplierAt([p], new Date("2026-03-10T07:30:00Z"), TZ).multiplier).toBe(2); // 08:30 in Paris
    expect(multiplierAt([p], new Date("2026-07-10T06:30:00Z"), TZ).multiplier).toBe(2); // 08:30 in Paris, summer
    expect(multiplierAt([p], new Date("2026-03-10T08:30:00Z"), TZ).multiplier).toBe(1);
  });

  it("takes the highest of overlapping periods, never their product", () => {
    const a = period({ id: "a", multiplier: 2 });
    const b = period({ id: "b", multiplier: 3, weekdays: [2] });
    expect(multiplierAt([a, b], paris("2026-03-10T12:00"), TZ)).toMatchObject({ multiplier: 3, period: { id: "b" } });
    expect(multiplierAt([a, b], paris("2026-03-11T12:00"), TZ)).toMatchObject({ multiplier: 2, period: { id: "a" } });
  });

  it("ignores inactive periods and knows when one is over", () => {
    const p = period({ isActive: false });
    expect(multiplierAt([p], paris("2026-03-10T12:00"), TZ).multiplier).toBe(1);
    expect(isPeriodOver(period({ endDate: "2026-03-09" }), paris("2026-03-10T12:00"), TZ)).toBe(true);
    expect(isPeriodOver(period({ endDate: "2026-03-10" }), paris("2026-03-10T12:00"), TZ)).toBe(false);
  });
});
