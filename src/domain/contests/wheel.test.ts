import { describe, expect, it } from "vitest";
import {
  losingOddsBp,
  ODDS_SCALE,
  pickSlice,
  secureRandomBelow,
  wheelArcs,
  wheelStopAngle,
} from "./wheel.ts";

/** χ² critical values at p = 0.001 by degrees of freedom (1…12), for the odds test. */
const CHI_SQUARE_P001 = [
  0, 10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588, 31.264, 32.909,
];

const slices = [
  { id: "cafe", oddsBp: 2000, inStock: true },
  { id: "croissant", oddsBp: 1000, inStock: true },
  { id: "gateau", oddsBp: 250, inStock: true },
];

describe("the wheel", () => {
  it("100 000 spins with the server's CSPRNG match the configured odds (χ² at p = 0.001)", () => {
    const counts = new Map<string, number>([
      ["cafe", 0],
      ["croissant", 0],
      ["gateau", 0],
      ["perdu", 0],
    ]);
    const spins = 100_000;
    for (let i = 0; i < spins; i++) {
      const won = pickSlice(slices, secureRandomBelow(ODDS_SCALE));
      const key = won?.id ?? "perdu";
      counts.set(key, counts.get(key)! + 1);
    }
    const odds = new Map([...slices.map((s) => [s.id, s.oddsBp] as const), ["perdu", losingOddsBp(slices)]]);
    let chi2 = 0;
    for (const [id, observed] of counts) {
      const expected = (spins * odds.get(id)!) / ODDS_SCALE;
      chi2 += (observed - expected) ** 2 / expected;
    }
    expect(losingOddsBp(slices)).toBe(6750);
    expect(chi2).toBeLessThan(CHI_SQUARE_P001[counts.size - 1]!);
  });

  it("draws below n without bias", () => {
    const seen = new Set<number>();
    for (let i = 0; i < 500; i++) {
      const r = secureRandomBelow(3);
      expect(r === 0 || r === 1 || r === 2).toBe(true);
      seen.add(r);
    }
    expect(seen.size).toBe(3);
  });

  it("maps r to slices by cumulative odds; a slice out of stock loses; the rest loses", () => {
    expect(pickSlice(slices, 0)?.id).toBe("cafe");
    expect(pickSlice(slices, 1999)?.id).toBe("cafe");
    expect(pickSlice(slices, 2000)?.id).toBe("croissant");
    expect(pickSlice(slices, 3249)?.id).toBe("gateau");
    expect(pickSlice(slices, 3250)).toBeNull();
    expect(pickSlice(slices, 9999)).toBeNull();
    const empty = slices.map((s) => (s.id === "cafe" ? { ...s, inStock: false } : s));
    expect(pickSlice(empty, 10)).toBeNull();
    expect(() => pickSlice(slices, ODDS_SCALE)).toThrow(RangeError);
    expect(pickSlice([{ id: "tout", oddsBp: ODDS_SCALE, inStock: true }], 9999)?.id).toBe("tout");
  });

  it("stops with the chosen slice under the pointer", () => {
    for (const [index, count] of [
      [0, 4],
      [2, 4],
      [5, 6],
    ] as const) {
      const angle = wheelStopAngle(index, count, 5, 0.3);
      const size = 360 / count;
      // The pointer is at 0°: after rotating by `angle`, the slice whose span holds (360 - angle mod 360) is on top.
      const under = ((360 - (angle % 360)) % 360) / size;
      expect(Math.floor(under)).toBe(index);
      expect(angle).toBeGreaterThan(5 * 360 - 1);
    }
  });

  it("issue 25 row 3: draws each slice as wide as its odds, and stops inside the chosen one", () => {
    const arcs = wheelArcs([500, 1500, 8000]);
    expect(arcs).toEqual([
      { start: 0, size: 18 },
      { start: 18, size: 54 },
      { start: 72, size: 288 },
    ]);
    for (const [index, jitter] of [
      [0, 0],
      [0, 0.99],
      [1, 0.5],
      [2, 0.01],
    ] as const) {
      const top = (360 - (wheelStopAngle(index, arcs, 6, jitter) % 360)) % 360;
      expect(top).toBeGreaterThan(arcs[index]!.start);
      expect(top).toBeLessThan(arcs[index]!.start + arcs[index]!.size);
    }
    expect(wheelArcs([0, 0])).toEqual([
      { start: 0, size: 180 },
      { start: 180, size: 180 },
    ]);
  });
});
