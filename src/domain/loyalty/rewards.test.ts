import { describe, expect, it } from "vitest";
import { summarizeLedger } from "./ledger.ts";
import {
  birthdayWeekYear,
  parseRedemptionCode,
  type RewardRules,
  redeemRefusal,
  redeemRefusalFr,
  tierFor,
  unitLabelFr,
  pickVisitMultiplier,
  visitMultipliers,
} from "./rewards.ts";

const tiers = [
  { name: "Or", threshold: 500, multiplier: 2, rewardId: null },
  { name: "Bronze", threshold: 50, multiplier: 1, rewardId: null },
  { name: "Argent", threshold: 200, multiplier: 1, rewardId: "gift" },
];

describe("VIP levels", () => {
  it("follow the lifetime total, in threshold order whatever the input order", () => {
    expect(tierFor(tiers, 0)).toMatchObject({ current: null, next: { name: "Bronze" }, missing: 50, percent: 0 });
    expect(tierFor(tiers, 49).current).toBeNull();
    expect(tierFor(tiers, 50)).toMatchObject({ current: { name: "Bronze" }, next: { name: "Argent" }, missing: 150, percent: 0 });
    expect(tierFor(tiers, 125)).toMatchObject({ current: { name: "Bronze" }, percent: 50 });
    expect(tierFor(tiers, 999)).toMatchObject({ current: { name: "Or" }, next: null, missing: 0, percent: 100 });
    expect(tierFor([], 999)).toMatchObject({ current: null, next: null });
  });

  it("spending never lowers a level: redemptions, refunds and expiry leave the lifetime total alone", () => {
    const earned = [
      { kind: "scan" as const, delta: 300 },
      { kind: "double_points" as const, delta: 250 },
    ];
    const before = summarizeLedger(earned);
    const after = summarizeLedger([
      ...earned,
      { kind: "redemption" as const, delta: -500 },
      { kind: "refund" as const, delta: 100 },
      { kind: "redemption" as const, delta: -100 },
      { kind: "expiry" as const, delta: -40 },
      { kind: "validation" as const, delta: 0 },
    ]);
    expect(after.balance).toBe(10);
    expect(after.lifetime).toBe(before.lifetime);
    expect(tierFor(tiers, after.lifetime).current?.name).toBe(tierFor(tiers, before.lifetime).current?.name);
    expect(tierFor(tiers, after.lifetime).current?.name).toBe("Or");
  });

  it("a visit takes the better of the double-points period and the level, never both", () => {
    const levels = [
      { name: "Argent", threshold: 100, multiplier: 2 },
      { name: "Or", threshold: 500, multiplier: 3 },
    ];
    const visit = (period: { multiplier: number; label: string } | null, lifetime: number) =>
      pickVisitMultiplier(visitMultipliers(period, levels), lifetime);
    expect(visit(null, 50)).toEqual({ multiplier: 1, label: null });
    expect(visit(null, 150)).toEqual({ multiplier: 2, label: "Niveau Argent" });
    expect(visit({ multiplier: 3, label: "Samedi" }, 150)).toEqual({ multiplier: 3, label: "Samedi" });
    expect(visit({ multiplier: 2, label: "Samedi" }, 150)).toEqual({ multiplier: 2, label: "Samedi" });
    expect(visit({ multiplier: 2, label: "Samedi" }, 600)).toEqual({ multiplier: 3, label: "Niveau Or" });
  });
});

describe("the birthday week", () => {
  it("is Monday to Sunday of the week holding this year's birthday", () => {
    // 2026-11-21 is a Saturday: its week runs Monday 16 to Sunday 22 November.
    expect(birthdayWeekYear("1990-11-21", "2026-11-16")).toBe(2026);
    expect(birthdayWeekYear("1990-11-21", "2026-11-22")).toBe(2026);
    expect(birthdayWeekYear("1990-11-21", "2026-11-15")).toBeNull();
    expect(birthdayWeekYear("1990-11-21", "2026-11-23")).toBeNull();
    expect(birthdayWeekYear(null, "2026-11-21")).toBeNull();
  });

  it("straddles New Year, and 29 February counts as the 28th in other years", () => {
    // 2027-01-01 is a Friday: its week starts Monday 28 December 2026, and counts for 2027.
    expect(birthdayWeekYear("2000-01-01", "2026-12-28")).toBe(2027);
    expect(birthdayWeekYear("2000-01-01", "2027-01-03")).toBe(2027);
    // 2027-02-28 is a Sunday: the week is 22–28 February.
    expect(birthdayWeekYear("2000-02-29", "2027-02-22")).toBe(2027);
    expect(birthdayWeekYear("2000-02-29", "2027-03-01")).toBeNull();
  });
});

describe("redeeming", () => {
  const reward: RewardRules = { cost: 10, isActive: true, stock: null, perCustomerLimit: null, kind: "repeatable", validFrom: null, validUntil: null };
  const standing = { balance: 10, hasCard: true, used: 0, shopActive: true, today: "2026-11-21" };

  it("says why not, in the same order as the database", () => {
    expect(redeemRefusal(reward, standing)).toBeNull();
    expect(redeemRefusal(reward, { ...standing, balance: 9 })).toBe("insufficient");
    expect(redeemRefusal({ ...reward, stock: 0 }, { ...standing, balance: 0 })).toBe("out_of_stock");
    expect(redeemRefusal({ ...reward, kind: "ladder" }, { ...standing, used: 1 })).toBe("already_claimed");
    expect(redeemRefusal({ ...reward, perCustomerLimit: 2 }, { ...standing, used: 2 })).toBe("limit_reached");
    expect(redeemRefusal({ ...reward, validFrom: "2026-11-22" }, standing)).toBe("not_started");
    expect(redeemRefusal({ ...reward, validUntil: "2026-11-20" }, standing)).toBe("ended");
    expect(redeemRefusal({ ...reward, isActive: false }, standing)).toBe("inactive");
    expect(redeemRefusal(reward, { ...standing, shopActive: false })).toBe("suspended");
    expect(redeemRefusal(reward, { ...standing, hasCard: false })).toBe("no_card");
  });

  it("words it in French with the right unit", () => {
    expect(redeemRefusalFr("insufficient", { mode: "stamps", missing: 1 })).toBe("Il vous manque 1 tampon pour cette récompense.");
    expect(redeemRefusalFr("insufficient", { mode: "points", missing: 1500 })).toBe("Il vous manque 1\u202f500 points pour cette récompense.");
    expect(redeemRefusalFr("ended", { mode: "points", validUntil: "2026-11-20" })).toBe("Cette récompense n'est plus disponible depuis le 20 novembre 2026.");
    expect(unitLabelFr("stamps", 2)).toBe("2 tampons");
  });

  it("reads a code typed loosely or from the QR code, and nothing else", () => {
    expect(parseRedemptionCode("abc 234")).toBe("ABC234");
    expect(parseRedemptionCode("FIDELE-R:XYZ789")).toBe("XYZ789");
    expect(parseRedemptionCode("abc-234")).toBe("ABC234");
    expect(parseRedemptionCode("ABC23")).toBeNull();
    expect(parseRedemptionCode("ABCO10")).toBeNull(); // O, 1 and 0 are never in a code
    expect(parseRedemptionCode("https://example.com")).toBeNull();
  });
});
