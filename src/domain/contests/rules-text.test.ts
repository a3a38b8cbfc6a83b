import { describe, expect, it } from "vitest";
import { buildRules, RULES_SECTION_IDS, type RulesDocument, type RulesInput } from "./rules-text.ts";

const rulesToText = (doc: RulesDocument) =>
  [doc.title, ...doc.sections.flatMap((s) => [s.heading, ...s.paragraphs])].join("\n");

const input = (over: Partial<RulesInput["contest"]> = {}): RulesInput => ({
  organiser: {
    shopName: "Boulangerie Dupain",
    legalName: "Dupain SARL",
    legalForm: "SARL",
    shareCapital: "5 000 €",
    rcs: "RCS Lyon 123 456 789",
    siret: "12345678900012",
    legalAddress: "3 rue des Fours, 69001 Lyon",
    address: "3 rue des Fours",
    postalCode: "69001",
    city: "Lyon",
    director: "Marie Dupain",
    contactEmail: "contact@dupain.fr",
  },
  contest: {
    title: "Grand tirage de Noël",
    kind: "draw",
    startsAt: new Date("2026-12-01T08:00:00Z"),
    endsAt: new Date("2026-12-24T17:00:00Z"),
    timeZone: "Europe/Paris",
    eligibility: "customers",
    entriesPerPerson: 1,
    spinPeriod: "day",
    seedCommitment: "ab".repeat(32),
    ...over,
  },
  prizes: [
    {
      name: "Bûche pâtissière",
      description: "6 parts",
      quantity: 2,
      valueCents: 3250,
      handover: "counter",
      points: null,
      claimDays: 15,
      oddsBp: 500,
    },
    {
      name: "100 points",
      description: null,
      quantity: 5,
      valueCents: 500,
      handover: "points",
      points: 100,
      claimDays: 30,
      oddsBp: 1000,
    },
  ],
  rulesUrl: "https://fidele.example/jeu-concours?reglement=c1",
  contestUrl: "https://fidele.example/jeu-concours?concours=c1",
});

const section = (doc: ReturnType<typeof buildRules>, id: string) => {
  const s = doc.sections.find((x) => x.id === id);
  if (!s) throw new Error(`missing section ${id}`);
  // Intl puts narrow no-break spaces in amounts: compare with plain spaces.
  return s.paragraphs.join("\n").replace(/[\u202f\u00a0]/g, " ");
};

describe("the generated règlement", () => {
  const doc = buildRules(input());

  it("has every section, in order", () => {
    expect(doc.sections.map((s) => s.id)).toEqual([...RULES_SECTION_IDS]);
    expect(doc.title).toBe("Règlement du jeu « Grand tirage de Noël »");
  });

  it("names the organiser from the shop's legal identity", () => {
    const text = section(doc, "organiser");
    expect(text).toContain(
      "Dupain SARL, SARL, au capital de 5 000 €, immatriculée au RCS Lyon 123 456 789, SIRET 12345678900012",
    );
    expect(text).toContain("3 rue des Fours, 69001 Lyon");
    expect(text).toContain("contact@dupain.fr");
    const bare = buildRules({
      ...input(),
      organiser: {
        ...input().organiser,
        legalName: null,
        legalForm: null,
        shareCapital: null,
        rcs: null,
        siret: null,
        legalAddress: null,
        contactEmail: null,
        director: null,
      },
    });
    expect(section(bare, "organiser")).toContain(
      "Le jeu est organisé par Boulangerie Dupain, dont le siège est situé 3 rue des Fours, 69001 Lyon",
    );
  });

  it("gives the dates in the shop's time zone", () => {
    expect(section(doc, "dates")).toBe(
      "Le jeu « Grand tirage de Noël » se déroule du 1 décembre 2026 à 9 h 00 au 24 décembre 2026 à 18 h 00 (heure de Paris).",
    );
  });

  it("says who may take part, that staff may not, and how often", () => {
    const text = section(doc, "participants");
    expect(text).toContain("les clients de la boutique");
    expect(text).toContain("Le personnel et les responsables de la boutique");
    expect(text).toContain("une seule fois");
    expect(text).toContain("au moins un passage enregistré en boutique");
    const wheel = buildRules(input({ kind: "wheel", spinPeriod: "week", eligibility: "confirmed" }));
    expect(section(wheel, "participants")).toContain("une fois par semaine");
    expect(section(wheel, "participants")).toContain("adresse e-mail confirmée");
  });

  it("states the one-person rule the app applies: the groups, and what happens to them in a draw and at the wheel", () => {
    const text = section(doc, "participants");
    expect(text).toContain("même appareil, un même numéro de mobile ou un même réseau internet");
    expect(text).toContain("IPv4 /24 ou IPv6 /48");
    expect(text).toContain("seules comptent les participations du compte qui s'est inscrit le premier");
    expect(text).toContain("présentés à l'Organisateur avant le tirage");
    const wheel = buildRules(input({ kind: "wheel" }));
    expect(section(wheel, "participants")).toContain("la roue ne peut tourner qu'une fois par période");
  });

  it("never mentions a points level: points are never asked for", () => {
    const all = rulesToText(doc);
    expect(all).not.toMatch(/VIP|niveau/i);
    expect(section(doc, "free")).toContain("aucun point de fidélité");
  });

  it("says participation is free and without purchase, and consent is separate", () => {
    const text = section(doc, "free");
    expect(text).toContain("Participation gratuite et sans obligation d'achat.");
    expect(text).toContain("aucun point de fidélité");
    expect(text).toContain("jamais une condition de participation");
  });

  it("explains the mechanism: the verifiable draw, or the instant win", () => {
    expect(section(doc, "mechanism")).toContain(`(${"ab".repeat(32)})`);
    expect(section(doc, "mechanism")).toContain("HMAC-SHA256");
    expect(section(buildRules(input({ kind: "wheel" })), "mechanism")).toContain("gain instantané");
  });

  it("lists each prize with nature, number and commercial value in euros", () => {
    const text = section(doc, "prizes");
    expect(text).toContain(
      "Bûche pâtissière (6 parts) : 2 lots, valeur commerciale unitaire 32,50 € TTC, remis en boutique",
    );
    expect(text).toContain(
      "100 points : 5 lots, valeur commerciale unitaire 5,00 € TTC, 100 points crédités sur la carte de fidélité.",
    );
    expect(text).toContain("Valeur commerciale totale des dotations : 90,00 € TTC.");
    const one = input();
    one.prizes = [{ ...one.prizes[1]!, name: "Un point", points: 1, quantity: 1 }];
    expect(section(buildRules(one), "prizes")).toContain(
      "1 lot, valeur commerciale unitaire 5,00 € TTC, 1 point crédité sur",
    );
    const wheel = buildRules(input({ kind: "wheel" }));
    expect(section(wheel, "prizes")).toContain("chance de gain par tour 5 %");
  });

  it("says how and when winners are chosen and told", () => {
    expect(section(doc, "winners")).toContain("24 décembre 2026 à 18 h 00");
    expect(section(doc, "winners")).toContain("par e-mail");
  });

  it("gives the claim deadline, and what becomes of unclaimed prizes", () => {
    expect(section(doc, "claim")).toContain("15, 30 jours selon le lot");
    expect(section(doc, "unclaimed")).toContain("réattribué au participant suivant");
  });

  it("covers personal data and free access to the règlement", () => {
    expect(section(doc, "personal-data")).toContain("RGPD");
    expect(section(doc, "access")).toContain("consultable gratuitement");
    expect(section(doc, "access")).toContain("https://fidele.example/jeu-concours?reglement=c1");
    expect(rulesToText(doc)).toContain("Article 11 — Accès au règlement");
  });

  it("has a claims and disputes article: deadline, amicable settlement first, the consumer mediator, the courts", () => {
    const text = section(doc, "claims");
    expect(rulesToText(doc)).toContain("Article 12 — Réclamations et litiges");
    // 60 days after 24 December 2026, in the shop's time zone.
    expect(text).toContain("au plus tard le 22 février 2027 (60 jours après la fin du jeu)");
    expect(text).toContain("par e-mail à contact@dupain.fr");
    expect(text).toContain("solution amiable");
    expect(text).toContain("médiateur de la consommation");
    expect(text).toContain("L611-1");
    expect(text).toContain("tribunaux français compétents");
    expect(text).toContain("R631-3");
    const noEmail = buildRules({ ...input(), organiser: { ...input().organiser, contactEmail: null } });
    expect(section(noEmail, "claims")).toContain("par courrier à l'Organisateur, 3 rue des Fours, 69001 Lyon");
  });
});
