import { describe, expect, it } from "vitest";
import { DEFAULT_CARD_DESIGN } from "../schemas/shops.ts";
import { passContent } from "./pass-content.ts";

const shop = {
  name: "Fleurs de Lou",
  address: "3 place Bellecour",
  postalCode: "69002",
  city: "Lyon",
  lat: 45.7578,
  lng: 4.832,
  design: DEFAULT_CARD_DESIGN,
  isClosed: false,
};
const code = { qr: "FIDELE-C:ABCDEFGH", display: "ABCD-EFGH" };

describe("passContent: what a card says in a phone's wallet (issue 26)", () => {
  it("stamps: the balance against the goal, the next reward, the lock-screen place and the personal code", () => {
    const content = passContent({
      shop,
      mode: "stamps",
      stampsGoal: 10,
      balance: 1,
      rewards: { reachable: 0, next: { title: "Bouquet offert", missing: 9 } },
      personalCode: code,
    });
    expect(content.balance).toEqual({
      key: "balance",
      label: "Tampons",
      value: "1 tampon sur 10",
      changeMessage: "Votre solde : %@",
    });
    expect(content.rewards?.value).toBe("Prochaine récompense : Bouquet offert (encore 9 tampons)");
    expect(content.location).toEqual({
      latitude: 45.7578,
      longitude: 4.832,
      relevantText: "Fleurs de Lou est tout près : montrez votre carte.",
    });
    expect(content.barcode).toEqual({ message: "FIDELE-C:ABCDEFGH", altText: "ABCD-EFGH" });
    expect(content.back.map((f) => f.label)).toEqual(["Au comptoir", "Ma carte client", "Adresse"]);
    expect(content.prepaid).toEqual([]);
    expect(content.voided).toBe(false);
  });

  it("bundles and gift cards: each on the front's list, and on the back with its last day", () => {
    const content = passContent({
      shop,
      mode: "stamps",
      stampsGoal: 10,
      balance: 1,
      rewards: { reachable: 0, next: null },
      personalCode: code,
      prepaid: [
        { title: "Carnet de 10 bouquets", balance: "7 unités", lastDay: "28 mai 2027" },
        { title: "Carte cadeau", balance: "17,50 €", lastDay: "28 novembre 2027" },
      ],
    });
    expect(content.prepaid).toEqual([
      { key: "prepaid-0", label: "Carnet de 10 bouquets", value: "7 unités" },
      { key: "prepaid-1", label: "Carte cadeau", value: "17,50 €" },
    ]);
    expect(content.back.map((f) => [f.label, f.value]).slice(2, 4)).toEqual([
      ["Carnet de 10 bouquets", "7 unités, valable jusqu'au 28 mai 2027 inclus"],
      ["Carte cadeau", "17,50 €, valable jusqu'au 28 novembre 2027 inclus"],
    ]);
    // Apple wants every key of a pass unique.
    const keys = [content.balance, content.place, ...content.prepaid, ...content.back].map((f) => f.key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("points, no pinned position, a closed shop: no location, a void pass", () => {
    const content = passContent({
      shop: { ...shop, lat: null, lng: null, isClosed: true },
      mode: "points",
      stampsGoal: 10,
      balance: 120,
      rewards: { reachable: 2, next: null },
      personalCode: null,
    });
    expect(content.balance.value).toBe("120 points");
    expect(content.rewards?.value).toBe("2 récompenses disponibles");
    expect(content.location).toBeNull();
    expect(content.barcode).toBeNull();
    expect(content.voided).toBe(true);
  });
});
