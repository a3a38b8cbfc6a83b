import { describe, expect, it } from "vitest";
import { PREPAID_ENTRY_KINDS, prepaidDeltaLabel, prepaidEntryLabelFr } from "./prepaid.ts";

const plain = (s: string) => s.replace(/\s/g, " ");

describe("a prepaid holding's history in words", () => {
  it("says each movement with its sign, a true minus, units or euros", () => {
    expect(prepaidDeltaLabel("units", 10)).toBe("+10 unités");
    expect(prepaidDeltaLabel("units", -1)).toBe("−1 unité");
    expect(plain(prepaidDeltaLabel("euros", -1250))).toBe("−12,50 €");
    expect(plain(prepaidDeltaLabel("euros", 150_000))).toBe("+1 500,00 €");
  });

  it("names every kind of entry; a cancel is a use given back or a sale taken back", () => {
    for (const kind of PREPAID_ENTRY_KINDS) expect(prepaidEntryLabelFr(kind, 1)).toMatch(/^[A-ZÉ]/);
    expect(prepaidEntryLabelFr("cancel", 3)).toBe("Débit annulé");
    expect(prepaidEntryLabelFr("cancel", -10)).toBe("Vente annulée");
  });
});
