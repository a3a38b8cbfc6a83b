import { describe, expect, it } from "vitest";
import { pickShop } from "../../../components/shop/current-shop.ts";
import { contrastRatio } from "./colour.ts";
import { formatTime, personName, plural } from "../../../components/back-office/format.ts";
import { describePeriod, listFr } from "./period-text.ts";

describe("back-office wording", () => {
  it("describes a double-points period in French", () => {
    expect(
      describePeriod({
        startDate: "2030-01-01",
        endDate: "2030-06-30",
        weekdays: [2, 4],
        startTime: "14:00",
        endTime: "17:30",
      }),
    ).toBe("Du 1 janvier 2030 au 30 juin 2030 · le mardi et jeudi · de 14 h à 17 h 30");
    expect(
      describePeriod({ startDate: "2030-12-24", endDate: "2030-12-24", weekdays: [], startTime: null, endTime: null }),
    ).toBe("Le 24 décembre 2030 · tous les jours · toute la journée");
    expect(
      describePeriod({
        startDate: null,
        endDate: "2031-02-01",
        weekdays: [1, 2, 3, 4, 5, 6, 7],
        startTime: null,
        endTime: null,
      }),
    ).toBe("Jusqu'au 1 février 2031 · tous les jours · toute la journée");
    expect(
      describePeriod({ startDate: null, endDate: null, weekdays: [6], startTime: "09:05", endTime: "12:00" }),
    ).toBe("Sans date de fin · le samedi · de 9 h 05 à 12 h");
  });

  it("joins lists, counts and names the French way", () => {
    expect(listFr([])).toBe("");
    expect(listFr(["lundi"])).toBe("lundi");
    expect(listFr(["lundi", "mardi", "mercredi"])).toBe("lundi, mardi et mercredi");
    expect(plural(1, "passage", "passages")).toBe("1 passage");
    expect(plural(1500, "passage", "passages")).toBe("1\u202f500 passages");
    expect(formatTime("08:00")).toBe("8 h");
    expect(personName({ firstName: "Léa", lastName: null, email: "lea@example.fr" })).toBe("Léa");
    expect(personName({ firstName: null, lastName: null, email: "lea@example.fr" })).toBe("lea@example.fr");
    expect(personName({ firstName: null, lastName: null, email: null })).toBe("Client sans nom");
  });
});

describe("card colours", () => {
  it("computes the WCAG contrast ratio", () => {
    expect(contrastRatio("#ffffff", "#000000")).toBeCloseTo(21, 5);
    expect(contrastRatio("#ffffff", "#0f766e")).toBeGreaterThan(4.5);
    expect(contrastRatio("#fef3c7", "#ffffff")).toBeLessThan(1.2);
  });
});

describe("the current shop", () => {
  const shops = [
    { id: "a", slug: "a", name: "A", status: "active" as const, role: "member" as const },
    { id: "b", slug: "b", name: "B", status: "active" as const, role: "owner" as const },
  ];
  it("keeps the remembered shop, else one the person manages, else the first", () => {
    expect(pickShop(shops, "a")?.id).toBe("a");
    expect(pickShop(shops, "gone")?.id).toBe("b");
    expect(pickShop(shops, null)?.id).toBe("b");
    expect(pickShop([shops[0]!], null)?.id).toBe("a");
    expect(pickShop([], "a")).toBeNull();
  });
});
