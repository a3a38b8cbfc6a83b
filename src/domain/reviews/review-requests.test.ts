import { describe, expect, it } from "vitest";
import {
  isAskingVisit,
  REVIEW_REQUEST_TEMPLATES,
  REVIEW_TARGETS,
  reviewRequestText,
  reviewSettingsSchema,
} from "./review-requests.ts";

/**
 * Issue 28 item 2: a review request never offers anything (Google's policy; Code de la consommation L111-7-2) and
 * never sorts the happy from the others (no « gating » question). Every template is read for both.
 */
const INCENTIVE =
  /\b(points?|tampons?|r[ée]compenses?|cadeaux?|offerts?|offre|gratuit\w*|r[ée]ductions?|remises?|promo\w*|bons? d'achat|gagn\w*|concours|tirage|avantages?|bonus)\b|%|€/i;
const GATING = /\b(satisfait\w*|content\w*|heureux|heureuse|mécontent\w*|note[sz]?-nous|5 étoiles|cinq étoiles)\b|\?/i;

describe("review request texts", () => {
  const texts = REVIEW_TARGETS.flatMap((target) => {
    const t = REVIEW_REQUEST_TEMPLATES[target];
    const filled = reviewRequestText(target, "Boulangerie Martin");
    return [t.title, t.body, filled.title, filled.body].map((text) => ({ target, text }));
  });

  it.each(texts)("$target: « $text » promises nothing", ({ text }) => {
    expect(text).not.toMatch(INCENTIVE);
  });

  it.each(texts)("$target: « $text » asks no satisfaction question first", ({ text }) => {
    expect(text).not.toMatch(GATING);
  });

  it("the words would be caught (the check is not empty)", () => {
    expect("Gagnez 10 points pour votre avis").toMatch(INCENTIVE);
    expect("Êtes-vous satisfait ?").toMatch(GATING);
  });

  it("puts the shop's name in, and says any opinion is welcome", () => {
    const { title, body } = reviewRequestText("google", "Chez Léa");
    expect(title).toContain("Chez Léa");
    expect(body).toContain("positif ou négatif");
  });
});

describe("which visits ask", () => {
  it("1: the first visit only", () => {
    expect([1, 2, 3, 10].map((v) => isAskingVisit(v, 1))).toEqual([true, false, false, false]);
  });
  it("N: every Nth visit", () => {
    expect([1, 2, 3, 4, 6].map((v) => isAskingVisit(v, 2))).toEqual([false, true, false, true, true]);
    expect(isAskingVisit(0, 3)).toBe(false);
  });
});

describe("settings", () => {
  it("a Google request needs a Google link", () => {
    const base = { enabled: true, target: "google", everyVisits: 1 };
    expect(reviewSettingsSchema.safeParse(base).success).toBe(false);
    expect(reviewSettingsSchema.safeParse({ ...base, googleUrl: "https://evil.example/review" }).success).toBe(false);
    expect(reviewSettingsSchema.safeParse({ ...base, googleUrl: "https://g.page/r/abc123/review" }).success).toBe(true);
  });
  it("no field for a text or a reward: the owner cannot add an incentive", () => {
    const r = reviewSettingsSchema.safeParse({ enabled: true, target: "fidele", everyVisits: 1, body: "10 % offerts" });
    expect(r.success).toBe(false);
  });
});
