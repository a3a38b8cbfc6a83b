import { describe, expect, it } from "vitest";
import {
  applyMergeFields,
  mergeValues,
  newsletterContentSchema,
  nextRewardLabel,
  unknownMergeFields,
} from "./newsletter-blocks.ts";

const rewards = [
  { title: "Croissant offert", cost: 50 },
  { title: "Café offert", cost: 20 },
];

describe("merge fields", () => {
  it("fills the known fields, escaped when asked, and leaves the others as written", () => {
    const values = { prenom: "<Zoé>", points: "120", prochaine_recompense: "Café" };
    expect(applyMergeFields("Bonjour {{prenom}}, {{ points }} pts, {{inconnu}}", values)).toBe(
      "Bonjour <Zoé>, 120 pts, {{inconnu}}",
    );
    expect(applyMergeFields("{{prenom}}", values, (s) => s.replace("<", "&lt;").replace(">", "&gt;"))).toBe(
      "&lt;Zoé&gt;",
    );
  });

  it("fills in one pass: a value put in is never filled again (issue 22, row 12)", () => {
    const values = {
      prenom: "{{__unsubscribe}} {{points}}",
      points: "120",
      prochaine_recompense: "",
      __unsubscribe: "https://x/u",
    };
    expect(applyMergeFields("Bonjour {{prenom}} ({{points}}) {{__unsubscribe}}", values)).toBe(
      "Bonjour {{__unsubscribe}} {{points}} (120) https://x/u",
    );
    // Names an object has of its own accord are no fields.
    expect(applyMergeFields("{{constructor}}", values)).toBe("{{constructor}}");
    expect(unknownMergeFields("{{constructor}} {{__proto__}}")).toEqual(["constructor", "__proto__"]);
  });

  it("names the unknown ones, and the schema refuses them (a typo never reaches customers)", () => {
    expect(unknownMergeFields("{{prenon}} et {{points}}")).toEqual(["prenon"]);
    const parsed = newsletterContentSchema.safeParse({
      subject: "Bonjour {{prenon}}",
      blocks: [{ type: "text", text: "x" }],
    });
    expect(parsed.success).toBe(false);
    // The engine's own fields ({{__unsubscribe}}…) cannot be written by a shop either.
    expect(
      newsletterContentSchema.safeParse({ subject: "a", blocks: [{ type: "text", text: "{{__unsubscribe}}" }] })
        .success,
    ).toBe(false);
  });

  it("the next reward is the cheapest one not yet reached; when all are, the best one", () => {
    expect(nextRewardLabel(0, rewards, "points")).toBe("Café offert (encore 20 points)");
    expect(nextRewardLabel(30, rewards, "points")).toBe("Croissant offert (encore 20 points)");
    expect(nextRewardLabel(49, rewards, "stamps")).toBe("Croissant offert (encore un tampon)");
    expect(nextRewardLabel(80, rewards, "points")).toBe("Croissant offert (déjà à votre portée)");
    expect(nextRewardLabel(80, [], "points")).toBe("");
  });

  it("a recipient without a first name is greeted neutrally; points are formatted in French", () => {
    expect(mergeValues({ firstName: null, balance: 1250, mode: "points", rewards })).toEqual({
      prenom: "cher client",
      points: "1\u202f250",
      prochaine_recompense: "Croissant offert (déjà à votre portée)",
    });
  });
});

describe("newsletter content", () => {
  it("takes every block type, and refuses an http image, an empty title and an unknown block", () => {
    const ok = newsletterContentSchema.safeParse({
      subject: "Nouveautés",
      preheader: "Ce mois-ci",
      blocks: [
        { type: "title", text: "Bonjour {{prenom}}" },
        { type: "text", text: "Du nouveau" },
        { type: "image", url: "https://exemple.fr/a.jpg" },
        { type: "button", label: "Voir", url: "/boutiques" },
        { type: "reward", rewardId: "8f0c0a8e-3b1c-4a57-9d43-5a1e0f3c2b11" },
        { type: "points" },
      ],
    });
    expect(ok.success).toBe(true);
    for (const block of [
      { type: "image", url: "http://exemple.fr/a.jpg" },
      { type: "title", text: "  " },
      { type: "script", text: "x" },
      { type: "button", label: "Voir", url: "javascript:alert(1)" },
    ]) {
      expect(newsletterContentSchema.safeParse({ subject: "a", blocks: [block] }).success, JSON.stringify(block)).toBe(
        false,
      );
    }
  });
});
