import { z } from "zod";
import { type CardMode, formatNumber } from "../format.ts";
import { stillToGoFr } from "../phrases.ts";
import { scheduledAtSchema, segmentSchema } from "./segments.ts";
import { httpsUrlSchema, linkUrlSchema } from "../schemas/links.ts";

/**
 * A newsletter (/admin/newsletter): a subject, a preheader (the line mail apps show
 * after the subject) and content blocks. The server renders the blocks to responsive
 * HTML (MJML) and plain text (modules/messages/channels/email-render.ts); merge fields are filled
 * per recipient.
 */
export const BLOCK_TYPES = ["title", "text", "image", "button", "reward", "points"] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const BLOCK_LABELS_FR: Record<BlockType, string> = {
  title: "Titre",
  text: "Texte",
  image: "Image",
  button: "Bouton",
  reward: "Une récompense",
  points: "Les points du client",
};

/** Merge fields, written {{name}} in a subject, a preheader, a title, a text or a button's label; never in an address. */
const MERGE_FIELDS = {
  prenom: "Prénom",
  points: "Points",
  prochaine_recompense: "Prochaine récompense",
} as const;
type MergeField = keyof typeof MERGE_FIELDS;
export type MergeValues = Record<MergeField, string>;

const MERGE_PATTERN = /\{\{\s*([a-z_]+)\s*\}\}/g;

/**
 * Fills {{field}} with the recipient's values (`encode`: HTML-escape) in ONE pass: a value put in is never read
 * again, so a first name written "{{__unsubscribe}}" stays those letters (issue 22, row 12). The engine's own
 * fields ({{__solde}}, {{__unsubscribe}}…) are filled in that same pass, from `values`. An unknown field is left
 * as written.
 */
export function applyMergeFields(
  text: string,
  values: Readonly<Record<string, string>>,
  encode: (s: string) => string = (s) => s,
) {
  return text.replace(MERGE_PATTERN, (whole, name: string) => {
    const value = Object.hasOwn(values, name) ? values[name] : undefined;
    return value === undefined ? whole : encode(value);
  });
}

/** The unknown merge fields of a text ({{prenon}}, {{__unsubscribe}}, {{constructor}}…), to refuse before sending. */
export function unknownMergeFields(text: string): string[] {
  return [...text.matchAll(MERGE_PATTERN)].map((m) => m[1]!).filter((name) => !Object.hasOwn(MERGE_FIELDS, name));
}

/** How a text's fields are said to the owner: « {{prenom}} (prénom), {{points}} (points)… ». */
export const MERGE_HINT_FR = Object.entries(MERGE_FIELDS)
  .map(([field, label]) => `{{${field}}} (${label.toLowerCase()})`)
  .join(", ");

/** Why a text is refused for its merge fields (the first unknown one named), or null when they are all known. */
export function mergeFieldsRefusalFr(text: string): string | null {
  const [unknown] = unknownMergeFields(text);
  return unknown === undefined
    ? null
    : `Champ de fusion inconnu : {{${unknown}}}. Utilisez ${Object.keys(MERGE_FIELDS)
        .map((f) => `{{${f}}}`)
        .join(", ")}.`;
}

export type RewardForMerge = { title: string; cost: number };

/** "Café offert (encore 20 points)", or what can be had already, or "" when the shop has no reward. */
export function nextRewardLabel(balance: number, rewards: RewardForMerge[], mode: CardMode): string {
  const sorted = [...rewards].sort((a, b) => a.cost - b.cost);
  const next = sorted.find((r) => r.cost > balance);
  if (next) return `${next.title} (${stillToGoFr(mode, next.cost - balance)})`;
  const best = sorted.at(-1);
  return best ? `${best.title} (déjà à votre portée)` : "";
}

/** The values of one recipient. `firstName` empty: a neutral greeting word. */
export function mergeValues(input: {
  firstName: string | null;
  balance: number;
  mode: CardMode;
  rewards: RewardForMerge[];
}): MergeValues {
  return {
    prenom: input.firstName?.trim() || "cher client",
    points: formatNumber(input.balance),
    prochaine_recompense: nextRewardLabel(input.balance, input.rewards, input.mode),
  };
}

const mergeable = (max: number, empty: string) =>
  z
    .string()
    .trim()
    .min(1, empty)
    .max(max, `${formatNumber(max)} caractères au plus.`)
    .refine(
      (v) => unknownMergeFields(v).length === 0,
      "Champ de fusion inconnu : utilisez {{prenom}}, {{points}} ou {{prochaine_recompense}}.",
    );

const blockSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("title"), text: mergeable(150, "Écrivez le titre.") }),
  z.object({ type: z.literal("text"), text: mergeable(3000, "Écrivez le texte.") }),
  z.object({
    type: z.literal("image"),
    url: httpsUrlSchema,
    alt: z.string().trim().max(200, "200 caractères au plus.").default(""),
  }),
  z.object({ type: z.literal("button"), label: mergeable(60, "Écrivez le texte du bouton."), url: linkUrlSchema }),
  z.object({ type: z.literal("reward"), rewardId: z.string().uuid("Choisissez une récompense.") }),
  z.object({ type: z.literal("points") }),
]);
export type Block = z.infer<typeof blockSchema>;

export const newsletterContentSchema = z.object({
  subject: mergeable(150, "Donnez un objet à l'e-mail."),
  preheader: z
    .string()
    .trim()
    .max(150, "150 caractères au plus.")
    .refine((v) => unknownMergeFields(v).length === 0, "Champ de fusion inconnu.")
    .default(""),
  blocks: z.array(blockSchema).min(1, "Ajoutez au moins un bloc.").max(30, "30 blocs au plus."),
});
export type NewsletterContent = z.infer<typeof newsletterContentSchema>;

export const newsletterSchema = newsletterContentSchema.extend({
  segment: segmentSchema.default({ kind: "all" }),
  scheduledAt: scheduledAtSchema,
});

/** A newsletter's first text, for the in-app list and the plain "title" of its messages row. */
export function newsletterTitle(content: Pick<NewsletterContent, "subject">): string {
  return content.subject.slice(0, 80);
}
