import { describe, expect, it } from "vitest";
import { isDarkFor } from "./colour-mode.tsx";

describe("isDarkFor (SPEC §4 colour mode)", () => {
  it("follows the choice, the system for 'system', and a route's forced mode above both", () => {
    expect(isDarkFor("dark", undefined, false)).toBe(true);
    expect(isDarkFor("light", undefined, true)).toBe(false);
    expect(isDarkFor("system", undefined, true)).toBe(true);
    expect(isDarkFor("system", undefined, false)).toBe(false);
    expect(isDarkFor("light", "dark", false)).toBe(true);
    expect(isDarkFor("dark", "light", true)).toBe(false);
  });
});
