import { describe, expect, it } from "vitest";
import { checkVisit, pointsPerVisit, scanMessageFr } from "./scan-rules.ts";

const TZ = "Europe/Paris";
const rules = { cooldownMinutes: 240, dailyCap: 2 };
// 2026-03-10 is a Tuesday; Paris is UTC+1 in winter.
const at = (iso: string) => new Date(iso);

describe("checkVisit: cooldown and daily cap", () => {
  it("allows a first visit", () => {
    expect(checkVisit({ lastScanAt: null, dayKey: null, dayCount: 0 }, rules, at("2026-03-10T09:00:00Z"), TZ)).toEqual({ ok: true });
  });

  it("refuses inside the cooldown and says when it ends", () => {
    const last = at("2026-03-10T09:00:00Z");
    const check = checkVisit({ lastScanAt: last, dayKey: "2026-03-10", dayCount: 1 }, rules, at("2026-03-10T12:59:00Z"), TZ);
    expect(check).toEqual({ ok: false, reason: "cooldown", nextAt: at("2026-03-10T13:00:00Z") });
    expect(checkVisit({ lastScanAt: last, dayKey: "2026-03-10", dayCount: 1 }, rules, at("2026-03-10T13:00:00Z"), TZ).ok).toBe(true);
  });

  it("caps visits per local day and reopens at local midnight", () => {
    const state = { lastScanAt: at("2026-03-10T14:00:00Z"), dayKey: "2026-03-10", dayCount: 2 };
    const check = checkVisit(state, rules, at("2026-03-10T20:00:00Z"), TZ);
    // Midnight in Paris = 23:00 UTC in winter.
    expect(check).toEqual({ ok: false, reason: "daily_cap", nextAt: at("2026-03-10T23:00:00Z") });
    expect(checkVisit(state, rules, at("2026-03-10T23:00:00Z"), TZ).ok).toBe(true);
  });

  it("counts the day in the shop's time zone, not UTC", () => {
    // 23:30 UTC on the 10th is already the 11th in Paris: yesterday's count does not apply.
    const state = { lastScanAt: at("2026-03-10T15:00:00Z"), dayKey: "2026-03-10", dayCount: 2 };
    expect(checkVisit(state, rules, at("2026-03-10T23:30:00Z"), TZ).ok).toBe(true);
  });

  it("when the cap is reached and the cooldown runs past midnight, the later one wins", () => {
    const state = { lastScanAt: at("2026-03-10T22:30:00Z"), dayKey: "2026-03-10", dayCount: 2 };
    const check = checkVisit(state, { cooldownMinutes: 240, dailyCap: 2 }, at("2026-03-10T22:40:00Z"), TZ);
    expect(check).toEqual({ ok: false, reason: "daily_cap", nextAt: at("2026-03-11T02:30:00Z") });
  });

  it("a zero cooldown only leaves the cap", () => {
    const state = { lastScanAt: at("2026-03-10T09:00:00Z"), dayKey: "2026-03-10", dayCount: 1 };
    expect(checkVisit(state, { cooldownMinutes: 0, dailyCap: 2 }, at("2026-03-10T09:00:01Z"), TZ).ok).toBe(true);
  });
});

describe("scan messages in French", () => {
  const now = at("2026-03-10T10:00:00Z");
  it("gives the time of the next possible visit, in the shop's time zone", () => {
    const message = scanMessageFr({
      outcome: "cooldown",
      shopName: "Boulangerie du Marché",
      mode: "stamps",
      delta: 0,
      multiplier: 1,
      nextAt: at("2026-03-10T14:42:00Z"),
      timezone: TZ,
      now,
    });
    expect(message).toBe("Votre passage chez Boulangerie du Marché a déjà été crédité récemment. Prochain passage possible aujourd'hui à 15 h 42.");
    const tomorrow = scanMessageFr({ outcome: "daily_cap", shopName: "X", mode: "stamps", delta: 0, multiplier: 1, nextAt: at("2026-03-10T23:00:00Z"), timezone: TZ, now });
    expect(tomorrow).toContain("demain à 0 h 00");
  });

  it("names each refusal", () => {
    const base = { shopName: "Chez Lou", mode: "points" as const, delta: 0, multiplier: 1, nextAt: null, timezone: TZ, now };
    expect(scanMessageFr({ ...base, outcome: "stale_code" })).toContain("expiré");
    expect(scanMessageFr({ ...base, outcome: "suspended" })).toContain("suspendue");
    expect(scanMessageFr({ ...base, outcome: "poster_disabled" })).toContain("affiche");
    expect(scanMessageFr({ ...base, outcome: "unknown_shop" })).toContain("aucune boutique");
    expect(scanMessageFr({ ...base, outcome: "invalid_code" })).toContain("pas valide");
    expect(scanMessageFr({ ...base, outcome: "accepted", delta: 20, multiplier: 2 })).toBe("Points ×2 ! 20 points ajoutés chez Chez Lou.");
    expect(scanMessageFr({ ...base, outcome: "accepted", mode: "stamps", delta: 1 })).toBe("1 tampon ajouté chez Chez Lou. Merci de votre visite !");
    // A stamp card's double visit is counted in stamps (issue 25 row 13).
    expect(scanMessageFr({ ...base, outcome: "accepted", mode: "stamps", delta: 2, multiplier: 2 })).toBe("Tampons ×2 ! 2 tampons ajoutés chez Chez Lou.");
  });

  it("counts stamps and points", () => {
    expect(pointsPerVisit({ mode: "stamps", pointsPerVisit: 50 })).toBe(1);
    expect(pointsPerVisit({ mode: "points", pointsPerVisit: 50 })).toBe(50);
  });
});
