import { describe, expect, it } from "vitest";
import { formatAmount, plural } from "./format.ts";
import {
  loyaltyCardsFr,
  creditedTodayFr,
  minutesFr,
  multipliedFr,
  reservedFr,
  reservedForFr,
  rewardsAvailableFr,
  seenAtFr,
  rewardsGlanceFr,
  stampsLeftFr,
  stampsOfGoalFr,
  stillToGoFr,
  visitsFr,
} from "./phrases.ts";
import { asShopRoleFr, SHOP_ROLE_LABELS_FR, shopRoleLabel } from "./roles.ts";

/** The phrases of issue 12, item 5, through the one French plural helper (Intl.PluralRules: 0 and 1 singular). */
describe("French plurals and agreement", () => {
  it("agrees every counted phrase at 0, 1, 2 and beyond", () => {
    expect(reservedForFr("stamps", 1, 15)).toBe(
      "Votre 1 tampon est réservé pendant 15 minutes et vous est rendu si la récompense n'est pas remise.",
    );
    expect(reservedForFr("stamps", 3, 1)).toBe(
      "Vos 3 tampons sont réservés pendant 1 minute et vous sont rendus si la récompense n'est pas remise.",
    );
    expect(reservedForFr("points", 120, 15)).toMatch(/^Vos 120 points sont réservés/);
    expect(reservedFr("stamps", 1)).toBe("1 tampon réservé");
    expect(reservedFr("stamps", 2)).toBe("2 tampons réservés");
    expect(loyaltyCardsFr(1)).toBe("1 carte de fidélité");
    expect(loyaltyCardsFr(2)).toBe("2 cartes de fidélité");
    expect(rewardsAvailableFr(0)).toBe("0 récompense disponible");
    expect(rewardsAvailableFr(1)).toBe("1 récompense disponible");
    expect(rewardsAvailableFr(2)).toBe("2 récompenses disponibles");
    expect(visitsFr(1)).toBe("1 passage");
    expect(visitsFr(12)).toBe("12 passages");
    expect(stampsLeftFr(1)).toBe("Plus qu'un tampon avant votre récompense.");
    expect(stampsLeftFr(7)).toBe("Plus que 7 tampons avant votre récompense.");
    expect(stampsOfGoalFr(1, 10)).toBe("1 tampon sur 10");
    expect(stampsOfGoalFr(0, 10)).toBe("0 tampon sur 10");
    expect(minutesFr(1)).toBe("1 minute");
    expect(minutesFr(15)).toBe("15 minutes");
    expect(formatAmount("points", 1)).toBe("1 point");
    expect(formatAmount("points", -5)).toBe("-5 points");
    // Thousands take the narrow no-break space, and stay plural.
    expect(plural(1500, "point", "points")).toBe("1\u202f500 points");
  });

  it("issue 25 row 12: the card sentence counts 0, 1 and 2, and names the next reward when some are ready", () => {
    expect(stampsLeftFr(0)).toBe("Carte complète : votre récompense vous attend !");
    expect(stampsLeftFr(1)).toBe("Plus qu'un tampon avant votre récompense.");
    expect(stampsLeftFr(2)).toBe("Plus que 2 tampons avant votre récompense.");
    expect(stillToGoFr("stamps", 1)).toBe("encore un tampon");
    expect(stillToGoFr("stamps", 2)).toBe("encore 2 tampons");
    expect(stillToGoFr("points", 1)).toBe("encore un point");
    expect(stillToGoFr("points", 30)).toBe("encore 30 points");
    // The counter's day in words, never « 0 passage crédité sur 0 » (issue 25 row 13).
    expect(creditedTodayFr(0, 0)).toBe("Aucun passage aujourd'hui.");
    expect(creditedTodayFr(0, 1)).toBe("Aucun passage crédité aujourd'hui, 1 refusé.");
    expect(creditedTodayFr(1, 1)).toBe("1 passage crédité aujourd'hui.");
    expect(creditedTodayFr(3, 5)).toBe("3 passages crédités aujourd'hui, 2 refusés.");
    // A multiplier in the card's own unit (issue 25 row 13).
    expect(multipliedFr("stamps", 2)).toBe("Tampons ×2");
    expect(multipliedFr("points", 3)).toBe("Points ×3");
    // Two rewards ready already: the sentence names the next one not yet reachable, not « Plus que 2 tampons ».
    expect(rewardsGlanceFr("stamps", { reachable: 2, next: { title: "Croissant offert", missing: 2 } })).toBe(
      "2 récompenses disponibles · Prochaine récompense : Croissant offert (encore 2 tampons)",
    );
    expect(rewardsGlanceFr("stamps", { reachable: 0, next: { title: "Café offert", missing: 1 } })).toBe(
      "Prochaine récompense : Café offert (encore un tampon)",
    );
    expect(rewardsGlanceFr("points", { reachable: 1, next: null })).toBe("1 récompense disponible");
    expect(rewardsGlanceFr("stamps", { reachable: 0, next: null })).toBeNull();
  });

  it("says when a balance was seen, without « telles qu'au aujourd'hui »", () => {
    const now = new Date(2026, 10, 23, 16, 0);
    expect(seenAtFr(new Date(2026, 10, 23, 14, 5), now)).toBe("vu à 14 h 05");
    expect(seenAtFr(new Date(2026, 10, 22, 9, 30), now)).toBe("vu hier à 9 h 30");
    expect(seenAtFr(new Date(2026, 2, 12, 9, 30), now)).toBe("vu le 12 mars");
    expect(seenAtFr(new Date(2026, 10, 23, 14, 5), now, true)).toBe("vus à 14 h 05");
  });

  it("names each shop role once, and agrees « en tant que »", () => {
    expect(SHOP_ROLE_LABELS_FR).toEqual({ owner: "Propriétaire", admin: "Responsable", member: "Membre de l'équipe" });
    expect(shopRoleLabel("owner")).toBe("Propriétaire");
    expect(shopRoleLabel("inconnu")).toBe("Membre de l'équipe");
    expect(asShopRoleFr("member")).toBe("en tant que membre de l'équipe");
    expect(asShopRoleFr("admin")).toBe("en tant que responsable");
    expect(asShopRoleFr("owner")).toBe("en tant que propriétaire");
  });
});
