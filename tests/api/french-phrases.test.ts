import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * Issue 12, item 5: phrases that were wrong for one of their numbers (or roles) no longer exist in the source;
 * their replacements agree through src/domain/phrases.ts and src/domain/roles.ts (unit-tested there), and the
 * rendered text of every route is checked by tests/setup/route-sweep.ts (tests/e2e/no-sideways-scroll-*.test.ts).
 */
const FORBIDDEN: [RegExp, string][] = [
  [/telles qu'au/, "« telles qu'au aujourd'hui »: seenAtFr in src/domain/phrases.ts"],
  [/en tant que\{" "\}/, "« en tant que équipe »: asShopRoleFr in src/domain/roles.ts"],
  [/sont réservés pendant/, "« Vos 1 tampon sont réservés »: reservedForFr"],
  [/\} réservés`/, "« 1 tampon réservés »: reservedFr"],
  [/appareil \$\{scan\.deviceId\}/, "« appareil 0967139f »: devices are numbered per shop"],
  [/owner: "Gérant"|member: "Équipe"/, "one name per role: SHOP_ROLE_LABELS_FR in src/domain/roles.ts"],
  [/récompense\$\{[^}]*> 1 \? "s" : ""\}/, "a hand-made plural: rewardsAvailableFr"],
  // Issue 25 row 13: words for a woman as for a man, the card's own unit, one word per meaning, no bare numbers.
  [
    /[ÉéEe]quipier|[Gg]érant\b|[Aa]dministrateur (Fidèle|de la plateforme)/,
    "« Équipier », « Gérant » for Léa: shopRoleLabel (Membre de l'équipe, Responsable)",
  ],
  [/(êtes|être|garder) connecté\b(?!\(e\))/, "masculine-only « connecté »: « connecté(e) » or a neutral phrasing"],
  [/\bprévenus?\b/, "« prévenu » alone: a neutral phrasing (« a reçu un message », « Recevez une alerte »)"],
  [/Points ×\{|Points ×\$\{/, "« Points ×2 » on a stamp card: multipliedFr (the card's unit)"],
  [/passage\$\{[^}]*> 1 \? "s" : ""\}/, "« 0 passage crédité sur 0 »: creditedTodayFr, plural"],
  [
    />\s*Retirer\s*</,
    "« Retirer » is what a winner does with a lot: archiving is « Archiver », removing from a form « Enlever »",
  ],
];

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory()
      ? sources(full)
      : /\.(ts|tsx)$/.test(name) && !/\.test\./.test(name)
        ? [full]
        : [];
  });
}

describe("French phrases of issues 12 and 25", () => {
  it("the wrong ones appear nowhere in src", () => {
    const found: string[] = [];
    // phrases.ts and roles.ts are where the right wording lives (their comments quote the wrong one).
    const helpers = ["src/domain/phrases.ts", "src/domain/roles.ts"].map((f) => path.resolve(f));
    for (const file of sources(path.resolve("src")).filter((f) => !helpers.includes(f))) {
      const text = readFileSync(file, "utf8");
      for (const [pattern, why] of FORBIDDEN) if (pattern.test(text)) found.push(`${path.relative(".", file)}: ${why}`);
    }
    expect(found).toEqual([]);
  });
});
