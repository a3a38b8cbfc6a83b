import { describe, expect, it } from "vitest";
import { type ContestTerms, changedLockedFields, extendedEnd, lockedFieldsMessage } from "./open-edit.ts";

const draw: ContestTerms = {
  kind: "draw",
  startsAt: new Date("2026-03-01T09:00:27.512Z"),
  eligibility: "customers",
  entriesPerPerson: 2,
  spinPeriod: "day",
  prizes: [
    { lotId: "a", quantity: 2, oddsBp: 0 },
    { lotId: "b", quantity: 1, oddsBp: 0 },
  ],
};

describe("issue 25 row 6: what an open contest keeps", () => {
  it("the same terms sent back by the form change nothing: the start to the minute, the prizes in any order", () => {
    const resent = {
      ...draw,
      startsAt: new Date("2026-03-01T09:00:00.000Z"),
      spinPeriod: "week" as const,
      prizes: [...draw.prizes].reverse(),
    };
    expect(changedLockedFields(draw, resent)).toEqual([]);
  });

  it("names every locked field that changed", () => {
    const next = {
      ...draw,
      startsAt: new Date("2026-03-02T09:00:00Z"),
      eligibility: "confirmed" as const,
      entriesPerPerson: 3,
      prizes: [{ lotId: "a", quantity: 3, oddsBp: 0 }, draw.prizes[1]!],
    };
    expect(changedLockedFields(draw, next)).toEqual(["startsAt", "eligibility", "entriesPerPerson", "prizes"]);
    expect(changedLockedFields(draw, { ...draw, kind: "wheel" })).toContain("kind");
    expect(changedLockedFields(draw, { ...draw, prizes: draw.prizes.slice(0, 1) })).toEqual(["prizes"]);
  });

  it("a wheel's odds and spin period are locked; its entries per person do not apply", () => {
    const wheel: ContestTerms = { ...draw, kind: "wheel", prizes: [{ lotId: "a", quantity: 1, oddsBp: 2500 }] };
    expect(changedLockedFields(wheel, { ...wheel, entriesPerPerson: 1 })).toEqual([]);
    expect(changedLockedFields(wheel, { ...wheel, spinPeriod: "contest" })).toEqual(["spinPeriod"]);
    expect(changedLockedFields(wheel, { ...wheel, prizes: [{ lotId: "a", quantity: 1, oddsBp: 5000 }] })).toEqual([
      "prizes",
    ]);
  });

  it("the end may move later, not earlier; the same minute from the form keeps the stored end", () => {
    const end = new Date("2026-03-20T18:00:41.200Z");
    expect(extendedEnd(end, new Date("2026-03-20T18:00:00Z"))).toBe(end);
    expect(extendedEnd(end, new Date("2026-03-21T18:00:00Z"))).toEqual(new Date("2026-03-21T18:00:00Z"));
    expect(extendedEnd(end, new Date("2026-03-20T17:59:00Z"))).toBeNull();
  });

  it("says which fields, in the form's words, and why", () => {
    expect(lockedFieldsMessage(["startsAt"], "draw")).toBe(
      "« Début » ne peut plus changer : le concours est ouvert, le règlement publié engage la boutique.",
    );
    expect(lockedFieldsMessage(["eligibility", "prizes"], "wheel")).toBe(
      "« Qui peut participer » et « Cases de la roue » ne peuvent plus changer : le concours est ouvert, le règlement publié engage la boutique.",
    );
  });
});
