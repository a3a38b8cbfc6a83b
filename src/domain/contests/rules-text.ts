import { formatEuros, formatLocalDate, formatNumber, plural } from "../format.ts";
import { formatMinutesFr, localParts } from "../loyalty/time.ts";
import {
  type ContestKind,
  type Eligibility,
  ELIGIBILITY_LABELS_FR,
  HANDOVER_LABELS_FR,
  type HandoverMode,
  type SpinPeriod,
} from "./contests.ts";
import { oddsPercent } from "./wheel.ts";

/**
 * The règlement, generated from the shop's legal identity (/admin/edit-societe), the contest and its lots. Every
 * section a serious organiser publishes: organiser, dates, who may take part and how often, free participation,
 * mechanism, prizes (nature, number, commercial value), how and when winners are chosen and told, claim deadline,
 * unclaimed prizes, personal data, free access to the règlement, claims and disputes.
 */

/** Claims about the game are received until this many days after its end (article « Réclamations et litiges »). */
export const CLAIMS_DEADLINE_DAYS = 60;

type RulesOrganiser = {
  shopName: string;
  legalName: string | null;
  legalForm: string | null;
  shareCapital: string | null;
  rcs: string | null;
  siret: string | null;
  legalAddress: string | null;
  address: string;
  postalCode: string;
  city: string;
  director: string | null;
  contactEmail: string | null;
};

type RulesPrize = {
  name: string;
  description: string | null;
  /** Draw: winners of this lot; wheel: units in stock when the règlement is published. */
  quantity: number;
  valueCents: number;
  handover: HandoverMode;
  points: number | null;
  claimDays: number;
  /** Wheel only. */
  oddsBp?: number;
};

export type RulesInput = {
  organiser: RulesOrganiser;
  contest: {
    title: string;
    kind: ContestKind;
    startsAt: Date;
    endsAt: Date;
    timeZone: string;
    eligibility: Eligibility;
    entriesPerPerson: number;
    spinPeriod: SpinPeriod;
    seedCommitment: string | null;
  };
  prizes: RulesPrize[];
  /** The stable public address of this règlement. */
  rulesUrl: string;
  /** The public page of the contest (commitment, seed, list, how to check). */
  contestUrl: string;
};

type RulesSection = { id: RulesSectionId; heading: string; paragraphs: string[] };
export type RulesDocument = { title: string; sections: RulesSection[] };

export const RULES_SECTION_IDS = [
  "organiser",
  "dates",
  "participants",
  "free",
  "mechanism",
  "prizes",
  "winners",
  "claim",
  "unclaimed",
  "personal-data",
  "access",
  "claims",
] as const;
type RulesSectionId = (typeof RULES_SECTION_IDS)[number];

const when = (instant: Date, tz: string) => {
  const p = localParts(instant, tz);
  return `${formatLocalDate(p.date)} à ${formatMinutesFr(p.minutes)}`;
};

const orNull = (v: string | null | undefined) => (v?.trim() ? v.trim() : null);

function organiserParagraphs(o: RulesOrganiser): string[] {
  const name = orNull(o.legalName) ?? o.shopName;
  const identity = [
    orNull(o.legalForm),
    orNull(o.shareCapital) ? `au capital de ${o.shareCapital!.trim()}` : null,
    orNull(o.rcs) ? `immatriculée au ${o.rcs!.trim()}` : null,
    orNull(o.siret) ? `SIRET ${o.siret!.trim()}` : null,
  ].filter(Boolean);
  const seat = orNull(o.legalAddress) ?? `${o.address}, ${o.postalCode} ${o.city}`;
  return [
    `Le jeu est organisé par ${name}${identity.length ? `, ${identity.join(", ")}` : ""}, dont le siège est situé ${seat}, exploitant la boutique « ${o.shopName} » (ci-après « l'Organisateur »).`,
    ...(orNull(o.director) ? [`Directeur ou directrice de la publication : ${o.director!.trim()}.`] : []),
    orNull(o.contactEmail)
      ? `Pour toute question sur le jeu : ${o.contactEmail!.trim()}.`
      : `Pour toute question sur le jeu, adressez-vous à la boutique, ${o.address}, ${o.postalCode} ${o.city}.`,
  ];
}

function prizeLine(p: RulesPrize, kind: ContestKind): string {
  const value = formatEuros(p.valueCents / 100);
  const handover =
    p.handover === "points" && p.points
      ? `${plural(p.points, "point crédité", "points crédités")} sur la carte de fidélité`
      : HANDOVER_LABELS_FR[p.handover].toLowerCase();
  const count =
    kind === "draw"
      ? plural(p.quantity, "lot", "lots")
      : `${plural(p.quantity, "lot", "lots")} en jeu, chance de gain par tour ${formatNumber(oddsPercent(p.oddsBp ?? 0))} %`;
  return `${p.name}${p.description ? ` (${p.description})` : ""} : ${count}, valeur commerciale unitaire ${value} TTC, ${handover}.`;
}

/**
 * Claims and disputes: a written claim within a deadline, an amicable settlement first, then the consumer
 * mediator (free for the consumer, Code de la consommation L612-1) and the courts (R631-3: the consumer may
 * also sue where they lived).
 */
function claimsParagraphs(o: RulesOrganiser, contest: RulesInput["contest"]): string[] {
  const deadline = new Date(contest.endsAt.getTime() + CLAIMS_DEADLINE_DAYS * 86_400_000);
  const where = orNull(o.contactEmail)
    ? `par e-mail à ${o.contactEmail!.trim()} ou par courrier à l'adresse de l'Organisateur`
    : `par courrier à l'Organisateur, ${orNull(o.legalAddress) ?? `${o.address}, ${o.postalCode} ${o.city}`}`;
  return [
    `Toute réclamation relative au jeu doit être adressée par écrit, ${where}, au plus tard le ${formatLocalDate(localParts(deadline, contest.timeZone).date)} (${formatNumber(CLAIMS_DEADLINE_DAYS)} jours après la fin du jeu), en précisant le nom du jeu, l'adresse e-mail du compte et l'objet de la réclamation. L'Organisateur y répond dans un délai d'un mois.`,
    "En cas de désaccord, les parties recherchent d'abord une solution amiable.",
    "À défaut d'accord amiable, le participant peut recourir gratuitement au médiateur de la consommation dont relève l'Organisateur (articles L611-1 et suivants du Code de la consommation), dans un délai d'un an à compter de sa réclamation écrite ; l'Organisateur en communique le nom et les coordonnées sur simple demande.",
    "À défaut de solution amiable ou de médiation, tout litige relève des tribunaux français compétents. Le participant peut saisir, à son choix, l'une des juridictions territorialement compétentes selon le Code de procédure civile ou celle du lieu où il demeurait au moment des faits (article R631-3 du Code de la consommation).",
  ];
}

export function buildRules(input: RulesInput): RulesDocument {
  const { organiser, contest, prizes } = input;
  const tz = contest.timeZone;
  const isDraw = contest.kind === "draw";
  const total = prizes.reduce((s, p) => s + p.valueCents * p.quantity, 0);
  const who = ELIGIBILITY_LABELS_FR[contest.eligibility];
  const howOften = isDraw
    ? `Chaque personne peut participer ${contest.entriesPerPerson === 1 ? "une seule fois" : `${formatNumber(contest.entriesPerPerson)} fois`} pendant la durée du jeu ; une même personne ne peut gagner qu'un seul lot.`
    : `Chaque personne peut faire tourner la roue une fois ${contest.spinPeriod === "day" ? "par jour" : contest.spinPeriod === "week" ? "par semaine" : "pendant toute la durée du jeu"}.`;
  // One person, one entry (ADR 0033): the rule the draw and the wheel apply, stated as they apply it.
  const onePerson = [
    "Une personne ne peut participer qu'avec un seul compte. Les comptes qui partagent un même appareil, un même numéro de mobile ou un même réseau internet (même bloc d'adresses IPv4 /24 ou IPv6 /48) pendant le jeu sont présumés appartenir à une même personne et forment un groupe.",
    isDraw
      ? "Pour chaque groupe, seules comptent les participations du compte qui s'est inscrit le premier ; les participations des autres comptes du groupe sont écartées du tirage. Les groupes sont présentés à l'Organisateur avant le tirage et la règle s'applique automatiquement, sans choix de sa part."
      : "Pour chaque groupe, la roue ne peut tourner qu'une fois par période indiquée ci-dessus, quel que soit le compte utilisé ; un tour refusé à ce titre est signalé à l'écran.",
  ];
  const claimDays = [...new Set(prizes.map((p) => p.claimDays))].sort((a, b) => a - b);
  const claimText =
    claimDays.length === 1
      ? plural(claimDays[0]!, "jour", "jours")
      : `${claimDays.map((d) => formatNumber(d)).join(", ")} jours selon le lot`;

  const sections: RulesSection[] = [
    { id: "organiser", heading: "Article 1 — Organisateur", paragraphs: organiserParagraphs(organiser) },
    {
      id: "dates",
      heading: "Article 2 — Dates du jeu",
      paragraphs: [
        `Le jeu « ${contest.title} » se déroule du ${when(contest.startsAt, tz)} au ${when(contest.endsAt, tz)} (heure de ${tz === "Europe/Paris" ? "Paris" : tz}).`,
      ],
    },
    {
      id: "participants",
      heading: "Article 3 — Qui peut participer, et combien de fois",
      paragraphs: [
        `Le jeu est ouvert aux personnes physiques majeures suivantes : ${who.charAt(0).toLowerCase()}${who.slice(1)}.`,
        "Le personnel et les responsables de la boutique organisatrice, ainsi que les membres de son équipe sur Fidèle, ne peuvent pas participer.",
        howOften,
        ...onePerson,
      ],
    },
    {
      id: "free",
      heading: "Article 4 — Participation gratuite",
      paragraphs: [
        "Participation gratuite et sans obligation d'achat. Aucun achat, aucun paiement et aucun point de fidélité ne sont demandés pour participer.",
        "Accepter de recevoir des offres de la boutique n'est jamais une condition de participation : ce choix est distinct et facultatif.",
      ],
    },
    {
      id: "mechanism",
      heading: "Article 5 — Mécanisme du jeu",
      paragraphs: isDraw
        ? [
            "Le jeu est un tirage au sort. Pour participer, il suffit de s'inscrire au jeu depuis l'application Fidèle pendant ses dates.",
            `Avant l'ouverture, l'Organisateur publie l'empreinte SHA-256 d'une graine secrète${contest.seedCommitment ? ` (${contest.seedCommitment})` : ""}. À la clôture, la liste des participations est figée ; son empreinte SHA-256 et la graine sont publiées sur la page du jeu (${input.contestUrl}).`,
            "Les gagnants sont désignés par une fonction déterministe de la graine et de la liste triée des participations (HMAC-SHA256, sans biais de modulo) : chacun peut refaire le calcul et vérifier le résultat.",
          ]
        : [
            "Le jeu est un jeu à gain instantané (roue de la chance). À chaque tour, le résultat est tiré par le serveur avec un générateur aléatoire cryptographique, selon les chances indiquées à l'article 6.",
            "Lorsqu'un lot est épuisé, sa case ne peut plus gagner ; la part correspondante revient à la case perdante.",
          ],
    },
    {
      id: "prizes",
      heading: "Article 6 — Dotations",
      paragraphs: [
        ...prizes.map((p) => prizeLine(p, contest.kind)),
        `Valeur commerciale totale des dotations : ${formatEuros(total / 100)} TTC. Les lots ne sont ni échangeables ni remboursables en espèces.`,
      ],
    },
    {
      id: "winners",
      heading: "Article 7 — Désignation et information des gagnants",
      paragraphs: isDraw
        ? [
            `Le tirage au sort a lieu automatiquement à la clôture du jeu, le ${when(contest.endsAt, tz)}, ou dès que possible après.`,
            "Les gagnants sont informés dans l'application Fidèle et par e-mail à l'adresse de leur compte.",
          ]
        : [
            "Le gagnant connaît le résultat immédiatement à l'écran ; il en est aussi informé dans l'application et par e-mail.",
          ],
    },
    {
      id: "claim",
      heading: "Article 8 — Retrait des lots",
      paragraphs: [
        `Le gagnant dispose de ${claimText} à compter de l'annonce de son gain pour retirer son lot à la boutique, sur présentation du code à 6 caractères affiché dans l'application. Les points éventuels sont crédités directement sur la carte de fidélité.`,
      ],
    },
    {
      id: "unclaimed",
      heading: "Article 9 — Lots non réclamés",
      paragraphs: isDraw
        ? [
            "Un lot non retiré dans le délai est réattribué au participant suivant dans la séquence du tirage, qui dispose à son tour du même délai. Chaque réattribution est consignée.",
          ]
        : ["Un lot non retiré dans le délai est perdu pour le gagnant et remis en jeu."],
    },
    {
      id: "personal-data",
      heading: "Article 10 — Données personnelles",
      paragraphs: [
        `Les données nécessaires au jeu (identifiant du compte, prénom, adresse e-mail, participations, gains) sont traitées par ${orNull(organiser.legalName) ?? organiser.shopName} pour l'organisation du jeu et la remise des lots, sur la base de l'exécution du présent règlement, et conservées un an après la fin du jeu.`,
        "La liste publiée des participations ne contient que des identifiants pseudonymes. Conformément au RGPD, chaque participant dispose d'un droit d'accès, de rectification, d'effacement et d'opposition, à exercer auprès de l'Organisateur ; il peut saisir la CNIL.",
      ],
    },
    {
      id: "access",
      heading: "Article 11 — Accès au règlement",
      paragraphs: [
        `Le présent règlement est consultable gratuitement, à tout moment, à l'adresse ${input.rulesUrl}. Toute modification après l'ouverture du jeu fait l'objet d'une nouvelle version datée, publiée à la même adresse.`,
        "La participation au jeu implique l'acceptation du présent règlement. Le jeu est soumis au droit français (Code de la consommation, article L121-20).",
      ],
    },
    { id: "claims", heading: "Article 12 — Réclamations et litiges", paragraphs: claimsParagraphs(organiser, contest) },
  ];
  return { title: `Règlement du jeu « ${contest.title} »`, sections };
}
