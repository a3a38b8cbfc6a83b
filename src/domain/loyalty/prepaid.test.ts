import { describe, expect, it } from "vitest";
import { PREPAID_ENTRY_KINDS, PREPAID_ENTRY_LABELS_FR, prepaidDeltaLabel } from "./prepaid.ts";

const plain = (s: string) => s.replace(/\s/g, " ");

describe("a prepaid holding's history in words", () => {
  it("says each movement with its sign, a true minus, units or euros", () => {
    expect(prepaidDeltaLabel("units", 10)).toBe("+10 unités");
    expect(prepaidDeltaLabel("units", -1)).toBe("−1 unité");
    expect(plain(prepaidDeltaLabel("euros", -1250))).toBe("−12,50 €");
    expect(plain(prepaidDeltaLabel("euros", 150_000))).toBe("+1 500,00 €");
  });

  it("names every kind of entry", () => {
    for (const kind of PREPAID_ENTRY_KINDS) expect(PREPAID_ENTRY_LABELS_FR[kind]).toMatch(/^[A-ZÉ]/);
  });
});
