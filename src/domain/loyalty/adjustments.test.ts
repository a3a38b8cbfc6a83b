import { describe, expect, it } from "vitest";
import { formatNumber, formatSigned } from "../format.ts";
import {
  adjustmentAlertLabelFr,
  adjustmentOutcomeFr,
  adjustmentCap,
  decideAdjustment,
  type AdjustmentRules,
} from "./adjustments.ts";

const rules: AdjustmentRules = {
  cardMode: "points",
  pointsPerVisit: 10,
  adjustmentLimit: null,
  staffAdjustmentsPerDay: 3,
  staffAdjustmentsLifetime: false,
};

describe("corrections: the team's cap (issue 22, row 17)", () => {
  it("the cap is a visit's worth unless the owner sets one", () => {
    expect(adjustmentCap(rules)).toBe(10);
    expect(adjustmentCap({ ...rules, cardMode: "stamps" })).toBe(1);
    expect(adjustmentCap({ ...rules, adjustmentLimit: 25 })).toBe(25);
  });

  it("a member within the cap is applied, balance only; beyond the amount or the day's count it waits", () => {
    const member = (delta: number, earlierToday = 0) =>
      decideAdjustment({ role: "member", delta, earlierToday, isTeamCard: false, rules });
    expect(member(10)).toEqual({ status: "applied", kind: "adjustment_balance", alerts: [] });
    expect(member(-10)).toEqual({ status: "applied", kind: "adjustment_balance", alerts: [] });
    expect(member(50)).toEqual({ status: "pending", kind: "adjustment_balance", alerts: ["over_cap"] });
    expect(member(-11).status).toBe("pending");
    expect(member(5, 2).status).toBe("applied");
    expect(member(5, 3)).toEqual({ status: "pending", kind: "adjustment_balance", alerts: ["many_today"] });
  });

  it("the lifetime total moves for a member only when the owner allows it; always for owner and manager", () => {
    const allowed = { ...rules, staffAdjustmentsLifetime: true };
    expect(
      decideAdjustment({ role: "member", delta: 5, earlierToday: 0, isTeamCard: false, rules: allowed }).kind,
    ).toBe("adjustment");
    for (const role of ["owner", "admin", "platform"] as const) {
      const d = decideAdjustment({ role, delta: 500, earlierToday: 7, isTeamCard: true, rules });
      expect(d).toEqual({ status: "applied", kind: "adjustment", alerts: ["over_cap", "many_today", "team_card"] });
    }
  });

  it("alerts read in French, with the shop's figures", () => {
    expect(adjustmentAlertLabelFr("over_cap", { cap: 1000, perDay: 3, mode: "points" })).toBe(
      `au-delà du plafond de l'équipe (${formatNumber(1000)} points)`,
    );
    expect(adjustmentAlertLabelFr("many_today", { cap: 1, perDay: 3, mode: "stamps" })).toBe(
      "plus de 3 corrections dans la journée par la même personne",
    );
    expect(adjustmentAlertLabelFr("team_card", { cap: 1, perDay: 3, mode: "stamps" })).toBe(
      "carte d'un membre de l'équipe",
    );
  });

  it("the author reads whether the correction is applied or waits", () => {
    expect(adjustmentOutcomeFr("applied", -2)).toBe(`Correction de ${formatSigned(-2)} enregistrée.`);
    expect(adjustmentOutcomeFr("pending", 50)).toMatch(/^Correction de \+50 envoyée pour accord/);
  });
});
