import { describe, expect, it } from "vitest";
import {
  broughtBy,
  compareGroups,
  differenceInterval,
  MIN_GROUP,
  pointsFr,
  verdictDetailFr,
  verdictFr,
  wilsonInterval,
} from "./holdout.ts";

/**
 * Issue 27, acceptance row 2: the holdout arithmetic against a known data set. The intervals are the published ones
 * of R. G. Newcombe (Statistics in Medicine 17, 1998, table II, method 10), to four decimals.
 */
const g = (returned: number, people: number) => ({ returned, people });

describe("the difference's interval (Newcombe 1998, method 10)", () => {
  it.each([
    ["(a) 56/70 − 48/80", g(56, 70), g(48, 80), 0.0524, 0.3339],
    ["(b) 9/10 − 3/10", g(9, 10), g(3, 10), 0.1705, 0.809],
    ["(e) 5/56 − 0/29", g(5, 56), g(0, 29), -0.0381, 0.1926],
  ])("%s", (_name, sent, holdout, low, high) => {
    const [l, h] = differenceInterval(sent, holdout);
    expect(l).toBeCloseTo(low, 4);
    expect(h).toBeCloseTo(high, 4);
  });

  it("a Wilson interval stays within [0, 1], even at 0 % and 100 %", () => {
    expect(wilsonInterval(g(0, 10))[0]).toBe(0);
    expect(wilsonInterval(g(10, 10))[1]).toBeCloseTo(1, 12);
    const [l, h] = wilsonInterval(g(81, 263));
    expect(l).toBeCloseTo(0.2553, 4);
    expect(h).toBeCloseTo(0.3662, 4);
  });
});

describe("the verdict", () => {
  it("rates and a real effect: « +20 points, probablement réel »", () => {
    const c = compareGroups(g(56, 70), g(48, 80), 0.1);
    expect(c.verdict).toBe("likely_real");
    expect(c.sentRate).toBeCloseTo(0.8, 10);
    expect(c.holdoutRate).toBeCloseTo(0.6, 10);
    expect(c.difference).toBeCloseTo(0.2, 10);
    expect(verdictFr(c)).toBe("+20 points, probablement réel");
    expect(verdictDetailFr(c)).toBe("Entre +5 points et +33 points, avec 95 % de confiance.");
  });

  it("worse with the message: the sign says so", () => {
    const c = compareGroups(g(48, 80), g(56, 70), 0.5);
    expect(c.verdict).toBe("likely_negative");
    expect(verdictFr(c)).toBe("-20 points, probablement réel");
  });

  it("too few people in a group: « trop tôt pour conclure », with how many more at this share", () => {
    const c = compareGroups(g(3, 10), g(0, 1), 0.1);
    expect(c.verdict).toBe("too_early");
    // 20 held out at 10 % means 200 people in all; 11 so far.
    expect(c.neededMore).toBe(200 - 11);
    expect(verdictFr(c)).toBe("Trop tôt pour conclure");
    expect(verdictDetailFr(c)).toBe("Il faut encore environ 189 clients concernés pour conclure.");
    expect(MIN_GROUP).toBe(20);
  });

  it("enough people but an interval holding 0 and large effects: too early, with the sample size still needed", () => {
    // 5/56 − 0/29: interval −3.8 to +19.3 points. Pooled rate 5/85, 10 % held out, the observed +8.9 points:
    // 1.96² × p(1 − p) × (1/0.9 + 1/0.1) / 0.0893² = 297 people in all, 85 so far.
    const c = compareGroups(g(5, 56), g(0, 29), 0.1);
    expect(c.verdict).toBe("too_early");
    expect(c.neededMore).toBe(212);
    // Equal rates, 100 a side: ±12.6 points; at half held out, ±5 points needs 1,291 people in all.
    const even = compareGroups(g(30, 100), g(30, 100), 0.5);
    expect(even.interval![0]).toBeCloseTo(-0.1255, 4);
    expect(even.verdict).toBe("too_early");
    expect(even.neededMore).toBe(1091);
  });

  it("many people and no effect either way: « pas de différence nette »", () => {
    const c = compareGroups(g(2000, 10000), g(200, 1000), 0.1);
    expect(c.interval![0]).toBeCloseTo(-0.027, 3);
    expect(c.interval![1]).toBeCloseTo(0.0249, 3);
    expect(c.verdict).toBe("no_clear_difference");
    expect(verdictFr(c)).toBe("Pas de différence nette (0 point)");
  });

  it("no holdout: never a conclusion, and it says why", () => {
    const c = compareGroups(g(40, 100), g(0, 0), 0);
    expect(c).toMatchObject({
      verdict: "too_early",
      holdoutRate: null,
      difference: null,
      interval: null,
      neededMore: null,
    });
    expect(verdictDetailFr(c)).toBe("Sans groupe témoin, aucune conclusion n'est possible.");
  });
});

describe("what the message brought", () => {
  it("the sent group's visits per person above the holdout's, times the sent group", () => {
    // 90 sent made 54 visits (0.6 each), 10 held out made 3 (0.3 each): 0.3 × 90 = 27 visits brought.
    expect(broughtBy({ people: 90, total: 54 }, { people: 10, total: 3 })).toBe(27);
    expect(broughtBy({ people: 90, total: 54 }, { people: 0, total: 0 })).toBeNull();
  });
  it("points of percentage in French words", () => {
    expect(pointsFr(0.12)).toBe("+12 points");
    expect(pointsFr(0.01)).toBe("+1 point");
    expect(pointsFr(-0.004)).toBe("0 point");
  });
});
