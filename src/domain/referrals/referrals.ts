import { z } from "zod";

/**
 * Parrainage that cannot be farmed (issue 28 item 1, ADR 0048). A shopper shares a link of their card; a friend who
 * has never had a visit credited at the shop accepts it; nothing is given at sign-up. Both rewards are released only
 * after the friend's first visit credited at the counter by a code that proves presence — a rotating code or a
 * staff member (never the fixed poster, never a sign-up alone) — within the shop's monthly cap per sponsor. Friends
 * linked to one another or to their sponsor by what contests use for one person, one entry (device, network, mobile:
 * src/domain/contests/one-person.ts) are held for the owner's decision.
 */
export const REFERRAL_STATUSES = ["waiting", "held", "released", "refused"] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

export const REFERRAL_STATUS_LABELS_FR: Record<ReferralStatus, string> = {
  waiting: "En attente du premier passage",
  held: "À vérifier",
  released: "Récompensé",
  refused: "Refusé",
};

/** The scan methods that count as a visit at the counter: a rotating code or a staff member, never the poster. */
export const QUALIFYING_SCAN_METHODS = ["rotating", "staff"] as const;

export const DEFAULT_MONTHLY_CAP = 5;
const MAX_MONTHLY_CAP = 50;

/** What one side of a referral receives: points on the card, or one of the shop's rewards (a gift), or nothing. */
const sideSchema = z
  .object({
    points: z.coerce
      .number({ error: "Indiquez un nombre." })
      .int("Indiquez un nombre entier.")
      .min(1, "Au moins 1.")
      .max(1000, "Au plus 1 000.")
      .nullable()
      .default(null),
    rewardId: z.string().uuid("Récompense introuvable.").nullable().default(null),
  })
  .refine((s) => s.points === null || s.rewardId === null, {
    message: "Choisissez soit des points, soit une récompense.",
  });

export const referralSettingsSchema = z
  .object({
    enabled: z.boolean(),
    sponsor: sideSchema,
    friend: sideSchema,
    monthlyCap: z.coerce
      .number({ error: "Indiquez un nombre." })
      .int("Indiquez un nombre entier.")
      .min(1, "Au moins 1 parrainage récompensé par mois.")
      .max(MAX_MONTHLY_CAP, `Au plus ${MAX_MONTHLY_CAP} par mois.`),
  })
  .strict()
  .refine((s) => !s.enabled || s.sponsor.points !== null || s.sponsor.rewardId !== null, {
    message: "Choisissez ce que reçoit le parrain.",
    path: ["sponsor"],
  })
  .refine((s) => !s.enabled || s.friend.points !== null || s.friend.rewardId !== null, {
    message: "Choisissez ce que reçoit le filleul.",
    path: ["friend"],
  });
export type ReferralSettings = z.output<typeof referralSettingsSchema>;

export const referralDecisionSchema = z.object({ release: z.boolean() }).strict();

/** Why a referral was held, in the owner's words (the ring's signals: one-person.ts's labels, plus these). */
export const REFERRAL_FLAG_LABELS_FR = {
  device: "même appareil",
  network: "même réseau internet",
  phone: "même numéro de mobile",
  sponsor: "lié au compte du parrain",
} as const;
export type ReferralFlag = keyof typeof REFERRAL_FLAG_LABELS_FR;
