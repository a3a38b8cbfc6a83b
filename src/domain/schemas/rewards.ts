import { z } from "zod";
import {
  REWARD_KINDS,
  REDEMPTION_TTL_MAX_MINUTES,
  REWARDS_PER_SHOP_MAX,
  VIP_MULTIPLIER_MAX,
  VIP_TIERS_MAX,
} from "../loyalty/rewards.ts";
import { idempotencyKeySchema } from "./cards.ts";
import { dateSchema, imageDataUrlSchema, optionalText, text } from "./shops.ts";
import { formatNumber } from "../format.ts";

/** Shared by the API and the forms of rewards, redemptions and VIP levels. */

export const REWARD_PHOTO_MAX_BYTES = 400 * 1024;

const optionalCount = (label: string, min: number, max: number) =>
  z
    .union([z.literal(""), z.null(), z.coerce.number({ error: `${label} : saisissez un nombre.` })])
    .optional()
    .transform((v) => (v === "" || v === null || v === undefined ? null : v))
    .pipe(
      z
        .number()
        .int(`${label} : nombre entier attendu.`)
        .min(min, `${label} : au moins ${min}.`)
        .max(max, `${label} : au plus ${formatNumber(max)}.`)
        .nullable(),
    );

const optionalDate = z
  .union([dateSchema, z.literal(""), z.null()])
  .optional()
  .transform((v) => v || null);

/** /admin/ajouter-un-reward: create or edit a reward. */
export const rewardInputSchema = z
  .object({
    title: text("le nom de la récompense", 2, 80),
    description: optionalText("Description", 1000),
    photo: imageDataUrlSchema(REWARD_PHOTO_MAX_BYTES, "Photo")
      .optional()
      .transform((v) => v ?? null),
    cost: z.coerce
      .number({ error: "Saisissez le coût." })
      .int("Coût : nombre entier attendu.")
      .min(1, "Coût : au moins 1.")
      .max(100_000, "Coût : au plus 100 000."),
    stock: optionalCount("Stock", 0, 100_000),
    perCustomerLimit: optionalCount("Limite par client", 1, 100),
    validFrom: optionalDate,
    validUntil: optionalDate,
    kind: z.enum(REWARD_KINDS, { error: "Choisissez le type de récompense." }).default("repeatable"),
    isActive: z.boolean().default(true),
  })
  .refine((r) => !r.validFrom || !r.validUntil || r.validFrom <= r.validUntil, {
    message: "La fin de validité doit suivre son début.",
    path: ["validUntil"],
  });
export type RewardValues = z.output<typeof rewardInputSchema>;

/** /admin/recompenses: the new order (every reward of the shop, once). */
export const rewardOrderSchema = z.object({
  ids: z
    .array(z.string().uuid("Récompense introuvable."))
    .min(1)
    .max(200)
    .refine((ids) => new Set(ids).size === ids.length, "Une récompense apparaît deux fois."),
});

export const rewardActiveSchema = z.object({
  isActive: z.boolean({ error: "Précisez si la récompense est proposée." }),
});

/** "Utiliser". */
export const redeemSchema = z.object({ idempotencyKey: idempotencyKeySchema });

/** Staff refuse a redemption, saying why (the shopper reads it). */
export const refuseRedemptionSchema = z.object({
  reason: text("un motif", 3, 200),
});

/** Staff type or scan the shopper's code. */
export const redemptionCodeQuerySchema = z.object({
  code: z.string({ error: "Saisissez le code." }).trim().min(1, "Saisissez le code.").max(80, "Code invalide."),
});

/** GET …/rewards (the owner's catalogue): one page holds a whole catalogue at its cap. */
export const ownerRewardsQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(REWARDS_PER_SHOP_MAX).default(REWARDS_PER_SHOP_MAX),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

export const redemptionsQuerySchema = z.object({
  status: z.enum(["pending", "validated", "refused", "cancelled", "expired", "all"]).default("all"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

/** /admin/recompenses settings: how long a pending redemption holds, and the birthday gift. */
export const rewardSettingsSchema = z.object({
  redemptionTtlMinutes: z.coerce
    .number({ error: "Saisissez une durée." })
    .int("Durée : nombre entier de minutes.")
    .min(1, "Durée : au moins 1 minute.")
    .max(REDEMPTION_TTL_MAX_MINUTES, "Durée : au plus 24 heures."),
  birthdayRewardId: z
    .union([z.string().uuid("Récompense introuvable."), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || null),
});

const vipTierSchema = z.object({
  name: text("le nom du niveau", 2, 30),
  threshold: z.coerce
    .number({ error: "Saisissez un seuil." })
    .int("Seuil : nombre entier attendu.")
    .min(1, "Seuil : au moins 1.")
    .max(1_000_000, "Seuil : au plus 1 000 000."),
  multiplier: z.coerce
    .number({ error: "Saisissez un multiplicateur." })
    .int("Multiplicateur : nombre entier attendu.")
    .min(1, "Multiplicateur : au moins ×1.")
    .max(VIP_MULTIPLIER_MAX, `Multiplicateur : au plus ×${VIP_MULTIPLIER_MAX}.`),
  rewardId: z
    .union([z.string().uuid("Récompense introuvable."), z.literal(""), z.null()])
    .optional()
    .transform((v) => v || null),
});

/** /vip settings: the whole ladder at once, thresholds strictly rising. */
export const vipTiersSchema = z.object({
  tiers: z
    .array(vipTierSchema)
    .max(VIP_TIERS_MAX, `Au plus ${VIP_TIERS_MAX} niveaux.`)
    .refine((t) => t.every((tier, i) => i === 0 || tier.threshold > (t[i - 1]?.threshold ?? 0)), {
      message: "Chaque niveau doit demander plus que le précédent.",
    })
    .refine((t) => new Set(t.map((x) => x.name.toLowerCase())).size === t.length, {
      message: "Deux niveaux portent le même nom.",
    }),
});
