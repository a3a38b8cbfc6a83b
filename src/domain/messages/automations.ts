import { z } from "zod";
import { mergeFieldsRefusalFr } from "./newsletter-blocks.ts";
import { DEFAULT_OFFER_DAYS, MAX_OFFER_DAYS, OFFER_KINDS } from "./offers.ts";

/**
 * Messages that send themselves (issue 27, ADR 0046): each kind is one occasion in a customer's life with the shop,
 * detected by the job engine (server/modules/messages/automation-run.service.ts), sent through the same pipeline and
 * engine as the composer's messages (consent, frequency cap, SMS budget and send window), at most once per person
 * and occasion. A random share of each occasion's people is held out (sent nothing) so the results can say honestly
 * whether the message made people come back (holdout.ts).
 */
export const AUTOMATION_KINDS = ["welcome", "win_back", "reward_waiting", "birthday", "almost_full"] as const;
export type AutomationKind = (typeof AUTOMATION_KINDS)[number];

type KindInfo = {
  label: string;
  /** What sets it off, in a sentence under its name. */
  when: string;
  /** Whether the owner picks a number of days (the absence, the wait). */
  hasDays: boolean;
  defaultDays: number | null;
  title: string;
  body: string;
};

export const AUTOMATION_INFO: Record<AutomationKind, KindInfo> = {
  welcome: {
    label: "Bienvenue",
    when: "Après le premier passage crédité d'un nouveau client.",
    hasDays: false,
    defaultDays: null,
    title: "Merci pour votre première visite !",
    body: "Votre carte de fidélité est prête : chaque passage vous rapproche d'une récompense. À bientôt !",
  },
  win_back: {
    label: "Vous nous manquez",
    when: "Quand un client n'est pas revenu depuis un certain nombre de jours, une fois par absence.",
    hasDays: true,
    defaultDays: 30,
    title: "Vous nous manquez !",
    body: "Cela fait un moment que nous ne vous avons pas vu. Passez nous voir : votre carte de fidélité vous attend.",
  },
  reward_waiting: {
    label: "Récompense qui attend",
    when: "Quand une carte a de quoi obtenir une récompense et que le client n'est pas revenu depuis un certain nombre de jours.",
    hasDays: true,
    defaultDays: 14,
    title: "Une récompense vous attend",
    body: "Votre carte a assez de points pour une récompense. Elle vous attend en boutique !",
  },
  birthday: {
    label: "Anniversaire",
    when: "Pendant la semaine de l'anniversaire du client (s'il l'a indiqué), avec le cadeau d'anniversaire de la boutique s'il y en a un.",
    hasDays: false,
    defaultDays: null,
    title: "Joyeux anniversaire !",
    body: "Toute l'équipe vous souhaite un joyeux anniversaire. Passez nous voir cette semaine !",
  },
  almost_full: {
    label: "Carte presque pleine",
    when: "Quand il ne manque plus qu'un passage au client pour obtenir une récompense.",
    hasDays: false,
    defaultDays: null,
    title: "Plus qu'un passage !",
    body: "Encore une visite et votre récompense est à vous.",
  },
};

/** The share held out when the owner has not chosen: 10 %. */
export const DEFAULT_HOLDOUT_PERCENT = 10;
const MAX_HOLDOUT_PERCENT = 50;

/**
 * A win-back is for an absence that began between `days` and `days + WIN_BACK_LATE_DAYS` ago: someone gone for a
 * year when the automation is turned on is not sent a « vous nous manquez » (the at-risk list offers it by hand).
 * The same bound holds for the waiting reward.
 */
export const WIN_BACK_LATE_DAYS = 30;
/** A welcome, or a « plus qu'un passage », is for a visit of the last days, not one of months ago. */
export const RECENT_VISIT_DAYS = 7;
/** A return counts when the person comes back within this many days of the occasion (both groups alike). */
export const RETURN_WINDOW_DAYS = 30;

/** The periods the results can be read over. */
export const RESULT_PERIODS = [30, 90] as const;

/** The offer the owner may attach (offers.ts says what it is). */
const offerSchema = z
  .object({
    kind: z.enum(OFFER_KINDS, { error: "Offre inconnue." }),
    rewardId: z.string().uuid("Choisissez la récompense offerte.").nullish(),
    days: z.coerce
      .number({ error: "Indiquez un nombre de jours." })
      .int("Indiquez un nombre entier de jours.")
      .min(1, "Au moins 1 jour.")
      .max(MAX_OFFER_DAYS, `Au plus ${MAX_OFFER_DAYS} jours.`)
      .default(DEFAULT_OFFER_DAYS),
  })
  .refine((o) => o.kind !== "reward" || Boolean(o.rewardId), {
    message: "Choisissez la récompense offerte.",
    path: ["rewardId"],
  });

/** A text that may hold merge fields ({{prenom}}…): an unknown one is refused, named, in French. */
const withMergeFields = (schema: z.ZodString) =>
  schema.superRefine((value, ctx) => {
    const refusal = mergeFieldsRefusalFr(value);
    if (refusal) ctx.addIssue({ code: "custom", message: refusal });
  });

const days = z.coerce
  .number({ error: "Indiquez un nombre de jours." })
  .int("Indiquez un nombre entier de jours.")
  .min(3, "Au moins 3 jours.")
  .max(365, "Au plus 365 jours.");

export const automationSettingsSchema = z.object({
  enabled: z.boolean(),
  push: z.boolean().default(true),
  email: z.boolean().default(false),
  sms: z.boolean().default(false),
  days: days.nullish(),
  title: withMergeFields(
    z.string().trim().min(1, "Donnez un titre au message.").max(80, "80 caractères au plus pour le titre."),
  ),
  body: withMergeFields(
    z.string().trim().min(1, "Écrivez le texte du message.").max(500, "500 caractères au plus pour le texte."),
  ),
  holdoutPercent: z.coerce
    .number({ error: "Indiquez un pourcentage." })
    .int("Indiquez un nombre entier.")
    .min(0, "Au moins 0 %.")
    .max(MAX_HOLDOUT_PERCENT, `Au plus ${MAX_HOLDOUT_PERCENT} %.`),
  /** The owner read the warning: with no holdout, the results cannot tell whether the message works. */
  noHoldoutConfirmed: z.boolean().default(false),
  /** The attached offer; null: none; left out: unchanged (the on/off switch sends no offer). */
  offer: offerSchema.nullable().optional(),
});
export type AutomationSettings = z.output<typeof automationSettingsSchema>;

/** Why a holdout of 0 needs a second word from the owner. */
export const NO_HOLDOUT_WARNING_FR =
  "Sans groupe témoin, impossible de savoir si ce message fait revenir vos clients : les résultats ne pourront rien affirmer.";

/**
 * The win-back's suggested absence, from the shop's own rhythm: twice the median number of days between two visits
 * of its regulars, between 14 and 120 days (30 when the shop has too few regulars to tell).
 */
export function suggestedWinBackDays(medianDaysBetweenVisits: number | null): number {
  if (medianDaysBetweenVisits === null || !Number.isFinite(medianDaysBetweenVisits)) return 30;
  return Math.min(120, Math.max(14, Math.round(2 * medianDaysBetweenVisits)));
}

/**
 * The text sent: the owner's, for a birthday the shop's gift when it has one, and the offer's line when it carries
 * one (the phone preview shows the same).
 */
export function automationBody(
  kind: AutomationKind,
  body: string,
  { gift, offer = null }: { gift: string | null; offer?: string | null },
): string {
  const lines = [body];
  if (kind === "birthday" && gift) lines.push(`Votre cadeau d'anniversaire vous attend cette semaine : ${gift}.`);
  if (offer) lines.push(offer);
  return lines.join("\n\n");
}
