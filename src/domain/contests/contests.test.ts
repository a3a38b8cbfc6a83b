import { describe, expect, it } from "vitest";
import { contestPhase, ineligibilityReason, parseClaimCode, periodKey } from "./contests.ts";
import { contestInputSchema } from "./schemas.ts";

const base = { emailVerified: true, isShopMember: false, hasVisited: true };

const validDraw = {
  kind: "draw",
  title: "Grand tirage",
  startsAt: "2026-12-01T08:00:00Z",
  endsAt: "2026-12-24T08:00:00Z",
  prizes: [{ lotId: "8d1c5a0e-6f0b-4a43-9d64-7a4a8f7e2b11", quantity: 1 }],
};

describe("contest rules", () => {
  it("derives open and closed from the dates of a scheduled contest", () => {
    const c = {
      status: "scheduled" as const,
      startsAt: new Date("2026-01-10T00:00:00Z"),
      endsAt: new Date("2026-01-20T00:00:00Z"),
    };
    expect(contestPhase(c, new Date("2026-01-09T00:00:00Z"))).toBe("scheduled");
    expect(contestPhase(c, new Date("2026-01-10T00:00:00Z"))).toBe("open");
    expect(contestPhase(c, new Date("2026-01-20T00:00:00Z"))).toBe("closed");
    expect(contestPhase({ ...c, status: "draft" }, new Date("2026-01-15T00:00:00Z"))).toBe("draft");
    expect(contestPhase({ ...c, status: "drawn" }, new Date("2026-01-25T00:00:00Z"))).toBe("drawn");
  });

  it("excludes staff, unconfirmed e-mails and, by default, anyone without a visit — never asks for points or a purchase", () => {
    expect(ineligibilityReason(base, "customers")).toBeNull();
    expect(ineligibilityReason({ ...base, isShopMember: true }, "confirmed")).toMatch(/personnel/);
    expect(ineligibilityReason({ ...base, emailVerified: false }, "confirmed")).toMatch(/Confirmez/);
    expect(ineligibilityReason({ ...base, hasVisited: false }, "customers")).toMatch(/clients de la boutique/);
    expect(ineligibilityReason({ ...base, hasVisited: false }, "confirmed")).toBeNull();
    expect(contestInputSchema.parse(validDraw).eligibility).toBe("customers");
    // No points level: the option and its field are refused.
    expect(contestInputSchema.safeParse({ ...validDraw, eligibility: "vip" }).success).toBe(false);
    const tier = contestInputSchema.safeParse({ ...validDraw, vipTierId: "8d1c5a0e-6f0b-4a43-9d64-7a4a8f7e2b12" });
    expect(tier.error?.issues[0]?.message).toMatch(/gratuit/);
  });

  it("counts spins per local day, per week (from Monday), or once for the contest", () => {
    // 23:30 UTC on Sunday 29 Nov 2026 is already Monday 30 Nov in Paris.
    const late = new Date("2026-11-29T23:30:00Z");
    expect(periodKey("day", late, "Europe/Paris")).toBe("2026-11-30");
    expect(periodKey("week", late, "Europe/Paris")).toBe("semaine-2026-11-30");
    expect(periodKey("week", new Date("2026-12-06T12:00:00Z"), "Europe/Paris")).toBe("semaine-2026-11-30");
    expect(periodKey("contest", late, "Europe/Paris")).toBe("contest");
  });

  it("reads claim codes typed loosely or from the QR code", () => {
    expect(parseClaimCode(" abc 234 ")).toBe("ABC234");
    expect(parseClaimCode("FIDELE-L:ABC234")).toBe("ABC234");
    expect(parseClaimCode("ABC10O")).toBeNull();
  });

  it("refuses any cost, price or purchase field: taking part is free", () => {
    const valid = validDraw;
    expect(contestInputSchema.safeParse(valid).success).toBe(true);
    for (const extra of [{ cost: 10 }, { pointsCost: 5 }, { purchaseRequired: true }, { price: 2 }]) {
      const parsed = contestInputSchema.safeParse({ ...valid, ...extra });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toMatch(/gratuit/);
    }
    const wheel = { ...valid, kind: "wheel", prizes: [{ lotId: valid.prizes[0]!.lotId, oddsBp: 10_001 }] };
    expect(contestInputSchema.safeParse(wheel).success).toBe(false);
  });
});
