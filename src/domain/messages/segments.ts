import { z } from "zod";
import { plural } from "../format.ts";
import { optionalLinkUrlSchema } from "../schemas/links.ts";

/**
 * Who a shop's message goes to (/admin/envoyer-un-message): all its customers, or one
 * segment. The server turns a segment into SQL (modules/messages/audience.ts); the
 * labels here are what the composer and the sent list show.
 */
const SEGMENT_KINDS = [
  "all",
  "vip",
  "visited_within",
  "not_seen_for",
  "birthday_month",
  "reward_within_reach",
] as const;
export type SegmentKind = (typeof SEGMENT_KINDS)[number];

const days = z.coerce
  .number({ error: "Indiquez un nombre de jours." })
  .int("Indiquez un nombre entier de jours.")
  .min(1, "Au moins 1 jour.")
  .max(730, "Au plus 730 jours.");

export const segmentSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }),
  z.object({ kind: z.literal("vip"), tierId: z.string().uuid("Choisissez un niveau VIP.") }),
  z.object({ kind: z.literal("visited_within"), days }),
  z.object({ kind: z.literal("not_seen_for"), days }),
  z.object({ kind: z.literal("birthday_month") }),
  z.object({ kind: z.literal("reward_within_reach") }),
]);
export type Segment = z.infer<typeof segmentSchema>;

/** A reward is "within reach" when what is missing is at most this share of its cost (and at least 1). */
export const WITHIN_REACH_SHARE = 0.2;

export function segmentLabelFr(segment: Segment, tierName?: string | null): string {
  switch (segment.kind) {
    case "all":
      return "Tous les clients";
    case "vip":
      return `Niveau VIP ${tierName ?? ""} et au-delà`.replace("  ", " ");
    case "visited_within":
      return `Venus il y a moins de ${plural(segment.days, "jour", "jours")}`;
    case "not_seen_for":
      return `Pas venus depuis ${plural(segment.days, "jour", "jours")}`;
    case "birthday_month":
      return "Anniversaire ce mois-ci";
    case "reward_within_reach":
      return "Une récompense à portée de main";
  }
}


/** When a message or a newsletter leaves: a future time; absent, now. */
export const scheduledAtSchema = z.iso
  .datetime({ offset: true, error: "Date d'envoi invalide." })
  .nullish()
  .refine((v) => !v || Date.parse(v) > Date.now() - 60_000, "La date d'envoi est passée.");

const messageContent = {
  title: z.string().trim().min(1, "Donnez un titre au message.").max(80, "80 caractères au plus pour le titre."),
  body: z.string().trim().min(1, "Écrivez le texte du message.").max(1000, "1 000 caractères au plus pour le texte."),
  imageUrl: optionalLinkUrlSchema,
  linkUrl: optionalLinkUrlSchema,
  push: z.boolean().default(true),
  /** E-mail too, for those who accepted it from this sender (rendered from the title, text, image and link). */
  email: z.boolean().default(false),
  scheduledAt: scheduledAtSchema,
};

export const composeSchema = z.object({
  ...messageContent,
  /** SMS too, to customers who accepted SMS and gave a number (issue 15); shops only. */
  sms: z.boolean().default(false),
  segment: segmentSchema,
});

export const PLATFORM_AUDIENCES = ["all_shoppers", "all_owners"] as const;
export type PlatformAudience = (typeof PLATFORM_AUDIENCES)[number];
export const PLATFORM_AUDIENCE_LABELS_FR: Record<PlatformAudience, string> = {
  all_shoppers: "Tous les utilisateurs",
  all_owners: "Tous les commerçants",
};
export const announceSchema = z.object({
  ...messageContent,
  audience: z.enum(PLATFORM_AUDIENCES, { error: "Choisissez à qui envoyer." }),
});

/** The channels a delivery goes by, in words (a person's « Mes données », the console). */
export const CHANNEL_LABELS_FR = {
  inapp: "Dans l'application",
  push: "Notification push",
  email: "E-mail",
  sms: "SMS",
} as const;

const MESSAGE_STATUSES = ["scheduled", "sending", "paused", "sent", "cancelled"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export const MESSAGE_STATUS_LABELS_FR: Record<MessageStatus, string> = {
  scheduled: "Programmé",
  sending: "En cours d'envoi",
  paused: "En pause",
  sent: "Envoyé",
  cancelled: "Annulé",
};
