import { describe, expect, it } from "vitest";
import {
  cardSettingsSchema,
  doublePointsSchema,
  imageDataUrlSchema,
  phoneSchema,
  reviewSchema,
  shopHoursSchema,
  shopRegistrationSchema,
  shopSearchSchema,
} from "./shops.ts";

const valid = {
  name: "  Le Fournil  ",
  category: "boulangerie",
  address: "4 rue de la Paix",
  city: "Lyon",
  postalCode: "69002",
  phone: "04.78.12.34.56",
};

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) => r.error?.issues[0]?.message;

describe("shop registration", () => {
  it("normalises what people type", () => {
    const parsed = shopRegistrationSchema.parse({ ...valid, siret: "732 829 320 00074" });
    expect(parsed).toMatchObject({ name: "Le Fournil", phone: "04 78 12 34 56", siret: "73282932000074" });
    expect(parsed.lat ?? null).toBeNull();
    expect(phoneSchema.parse("+33 6 12 34 56 78")).toBe("06 12 34 56 78");
    expect(shopRegistrationSchema.parse({ ...valid, siret: "" }).siret).toBeNull();
  });

  it("explains what is wrong, in French", () => {
    expect(firstMessage(shopRegistrationSchema.safeParse({ ...valid, siret: "73282932000075" }))).toBe(
      "Ce numéro SIRET n'est pas valide (vérifiez les chiffres).",
    );
    expect(firstMessage(shopRegistrationSchema.safeParse({ ...valid, siret: "1234" }))).toBe("Le SIRET doit contenir 14 chiffres.");
    expect(firstMessage(shopRegistrationSchema.safeParse({ ...valid, lat: 45.7 }))).toBe("Placez le repère sur la carte ou laissez la position vide.");
    expect(firstMessage(shopRegistrationSchema.safeParse({ ...valid, name: "A" }))).toBe("Le nom de la boutique : au moins 2 caractères.");
    expect(firstMessage(shopRegistrationSchema.safeParse({ ...valid, phone: "06 12" }))).toBe(
      "Le numéro de téléphone doit contenir 10 chiffres (ex. 01 23 45 67 89).",
    );
  });
});

describe("hours", () => {
  const week = (day: { open: string; close: string }[]) => [day, [], [], [], [], [], []];
  it("accepts breaks, overnight ranges and 24:00", () => {
    expect(shopHoursSchema.safeParse({ weekly: week([{ open: "09:00", close: "12:00" }, { open: "14:00", close: "24:00" }]), closures: [] }).success).toBe(true);
    expect(shopHoursSchema.safeParse({ weekly: week([{ open: "20:00", close: "02:00" }]), closures: [] }).success).toBe(true);
  });
  it("refuses overlaps, equal times, bad times, and closures that end before they start", () => {
    expect(firstMessage(shopHoursSchema.safeParse({ weekly: week([{ open: "09:00", close: "13:00" }, { open: "12:00", close: "14:00" }]), closures: [] }))).toBe(
      "Des plages horaires se chevauchent.",
    );
    expect(firstMessage(shopHoursSchema.safeParse({ weekly: week([{ open: "09:00", close: "09:00" }]), closures: [] }))).toBe(
      "L'ouverture et la fermeture doivent différer.",
    );
    expect(firstMessage(shopHoursSchema.safeParse({ weekly: week([{ open: "9h", close: "12:00" }]), closures: [] }))).toBe("Heure invalide (HH:MM).");
    expect(firstMessage(shopHoursSchema.safeParse({ weekly: [[]], closures: [] }))).toBe("Les horaires doivent couvrir les sept jours.");
    expect(
      firstMessage(shopHoursSchema.safeParse({ weekly: week([]), closures: [{ startDate: "2026-05-10", endDate: "2026-05-01", reason: "" }] })),
    ).toBe("La fin doit suivre le début.");
  });
});

describe("card settings, double points, reviews, images, search", () => {
  it("bounds the card rules", () => {
    const base = { mode: "stamps", stampsGoal: 10, pointsPerVisit: 10, cooldownMinutes: 240, dailyCap: 2, allowStaticPoster: false, design: { background: "#000000", foreground: "#ffffff", accent: "#ff0000", stampIcon: "star" } };
    expect(cardSettingsSchema.safeParse(base).success).toBe(true);
    expect(firstMessage(cardSettingsSchema.safeParse({ ...base, dailyCap: 0 }))).toBe("Au moins 1 passage par jour.");
    expect(firstMessage(cardSettingsSchema.safeParse({ ...base, stampsGoal: 2 }))).toBe("Au moins 3 tampons.");
    expect(firstMessage(cardSettingsSchema.safeParse({ ...base, design: { ...base.design, stampIcon: "skull" } }))).toBe("Choisissez une icône de tampon.");
  });
  it("double points: sorted unique weekdays, both times or none", () => {
    expect(doublePointsSchema.parse({ label: "Happy hour", weekdays: [5, 1, 5], multiplier: 2 })).toMatchObject({
      weekdays: [1, 5],
      startTime: null,
      endTime: null,
      isActive: true,
    });
    expect(firstMessage(doublePointsSchema.safeParse({ label: "Nuit", startTime: "22:00", endTime: "22:00", multiplier: 2 }))).toBe("Les heures doivent différer.");
    expect(firstMessage(doublePointsSchema.safeParse({ label: "Soldes", startDate: "2026-02-10", endDate: "2026-02-01", multiplier: 2 }))).toBe(
      "La fin doit suivre le début.",
    );
  });
  it("reviews are rated 1 to 5", () => {
    expect(reviewSchema.parse({ rating: "4", comment: "  " })).toEqual({ rating: 4, comment: null });
    expect(firstMessage(reviewSchema.safeParse({ rating: 0 }))).toBe("Donnez une note de 1 à 5.");
  });
  it("images are typed data URLs under a size", () => {
    const schema = imageDataUrlSchema(10, "Logo");
    expect(schema.safeParse("data:image/png;base64,AAAA").success).toBe(true);
    expect(firstMessage(schema.safeParse("data:image/svg+xml;base64,AAAA"))).toBe("Logo : choisissez une image PNG, JPEG ou WebP.");
    expect(firstMessage(schema.safeParse(`data:image/png;base64,${"A".repeat(40)}`))).toBe("Logo : l'image doit peser au plus 0 Ko.");
    expect(schema.safeParse(null).success).toBe(true);
  });
  it("search queries come from the URL", () => {
    expect(shopSearchSchema.parse({ lat: "45.76", lng: "4.83", limit: "5" })).toMatchObject({ lat: 45.76, lng: 4.83, limit: 5, offset: 0 });
    expect(shopSearchSchema.safeParse({ lat: "45.76" }).success).toBe(false);
    expect(shopSearchSchema.safeParse({ category: "garage" }).success).toBe(false);
  });
});
