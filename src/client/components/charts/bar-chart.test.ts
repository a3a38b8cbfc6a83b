import { describe, expect, it } from "vitest";
import { niceMax, tickIndexes } from "./bar-chart.tsx";

describe("the chart's scale", () => {
  it("tops at a round number at or above the highest value, whose half is whole", () => {
    expect([0, 1, 2, 3, 5, 7, 9, 11, 23, 55, 99, 101].map(niceMax)).toEqual([
      2, 2, 2, 4, 6, 8, 10, 20, 40, 60, 100, 200,
    ]);
    for (let max = 0; max < 5000; max += 7) {
      const top = niceMax(max);
      expect(top).toBeGreaterThanOrEqual(max);
      expect(top / 2).toBe(Math.round(top / 2));
    }
  });
});

describe("the axis labels", () => {
  it("label every point when there are few, else about five spread evenly, the first and last always", () => {
    expect(tickIndexes(0)).toEqual([]);
    expect(tickIndexes(3)).toEqual([0, 1, 2]);
    expect(tickIndexes(30)).toEqual([0, 8, 16, 29]);
    expect(tickIndexes(90)).toEqual([0, 23, 46, 89]);
    expect(tickIndexes(7)).toEqual([0, 2, 4, 6]);
    expect(tickIndexes(12, 2)).toEqual([0, 11]);
  });

  it("keeps the labels apart, the last one most (it reaches left from the right edge)", () => {
    for (let count = 2; count <= 120; count++) {
      const ticks = tickIndexes(count);
      expect(ticks[0]).toBe(0);
      expect(ticks.at(-1)).toBe(count - 1);
      const gaps = ticks.slice(1).map((t, i) => t - (ticks[i] ?? 0));
      const step = Math.ceil((count - 1) / 4);
      expect(Math.min(...gaps), `${count} points`).toBeGreaterThanOrEqual(count <= 5 ? 1 : step);
    }
  });
});
