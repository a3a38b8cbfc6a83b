import { describe, expect, it } from "vitest";
import { contrastRatio } from "./colour.ts";

describe("card colours", () => {
  it("computes the WCAG contrast ratio", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#0f766e")).toBeGreaterThan(4.5);
    expect(contrastRatio("#fef3c7", "#ffffff")).toBeLessThan(1.2);
  });
});
