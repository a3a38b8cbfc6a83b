import { describe, expect, it } from "vitest";
import { toCsv, csvCell, csvDateTime } from "./csv.ts";
import { cardProgress, summarizeLedger } from "./ledger.ts";
import { foldSearch, isValidSiret, slugify } from "./shop-text.ts";
import { zonedToUtc } from "./time.ts";

describe("ledger totals", () => {
  it("balance sums everything; lifetime counts only what was earned", () => {
    const totals = summarizeLedger([
      { kind: "scan", delta: 10 },
      { kind: "double_points", delta: 20 },
      { kind: "redemption", delta: -25 },
      { kind: "refund", delta: 25 },
      { kind: "adjustment", delta: -5 },
      { kind: "expiry", delta: -3 },
      { kind: "bonus", delta: 4 },
    ]);
    expect(totals).toEqual({ balance: 26, lifetime: 29 });
  });

  it("shows stamps against the goal and points as they are", () => {
    expect(cardProgress("stamps", 10, 4)).toEqual({ mode: "stamps", stamps: 4, goal: 10, isFull: false, percent: 40 });
    expect(cardProgress("stamps", 10, 12)).toMatchObject({ isFull: true, percent: 100 });
    expect(cardProgress("points", 10, 120)).toEqual({ mode: "points", points: 120 });
  });
});

describe("CSV for Excel", () => {
  it("uses ; with a BOM and CRLF, quotes what needs it", () => {
    const csv = toCsv(["Prénom", "Points"], [["Zoé; \"la\"", 12], ["Léa", 3.5]]);
    expect(csv.startsWith("\uFEFF")).toBe(true);
    expect(csv).toBe('\uFEFFPrénom;Points\r\n"Zoé; ""la""";12\r\nLéa;3,5\r\n');
  });

  it("defuses formula injection in text cells, not in numbers", () => {
    expect(csvCell("=HYPERLINK(\"http://x\")")).toBe("\"'=HYPERLINK(\"\"http://x\"\")\"");
    expect(csvCell("+33 6 00")).toBe("'+33 6 00");
    expect(csvCell("-2+3")).toBe("'-2+3");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell(-5)).toBe("-5");
    expect(csvCell(null)).toBe("");
  });

  it("writes dates in the shop's time zone", () => {
    expect(csvDateTime(new Date("2026-03-10T14:42:00Z"), "Europe/Paris")).toBe("10/03/2026 15:42");
  });
});

describe("shop text", () => {
  it("makes slugs", () => {
    expect(slugify("Boulangerie du Marché")).toBe("boulangerie-du-marche");
    expect(slugify("  L'Œuf & la Poule !! ")).toBe("l-oeuf-la-poule");
    expect(slugify("???")).toBe("boutique");
  });
  it("folds accents for search", () => {
    expect(foldSearch("  Épicerie FINE ")).toBe("epicerie fine");
  });
  it("checks SIRET with Luhn (and La Poste's rule)", () => {
    expect(isValidSiret("73282932000074")).toBe(true);
    expect(isValidSiret("73282932000075")).toBe(false);
    expect(isValidSiret("7328293200007")).toBe(false);
    expect(isValidSiret("35600000000048")).toBe(true);
    expect(isValidSiret("35600000012346")).toBe(true); // La Poste: digit sum 30
  });
});

describe("time zone helpers", () => {
  it("turns a Paris wall time into an instant, winter and summer", () => {
    expect(zonedToUtc("2026-01-15", 9 * 60, "Europe/Paris").toISOString()).toBe("2026-01-15T08:00:00.000Z");
    expect(zonedToUtc("2026-07-15", 9 * 60, "Europe/Paris").toISOString()).toBe("2026-07-15T07:00:00.000Z");
    expect(zonedToUtc("2026-03-11", 0, "Europe/Paris").toISOString()).toBe("2026-03-10T23:00:00.000Z");
  });
});
