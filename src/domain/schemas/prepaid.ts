import { z } from "zod";
import {
  PAYMENT_METHODS,
  PREPAID_CENTS_MAX,
  PREPAID_KINDS,
  PREPAID_UNITS_MAX,
  PREPAID_VALIDITY_MONTHS,
  parseClaimCode,
  parsePrepaidCode,
} from "../loyalty/prepaid.ts";
import { emailSchema } from "./accounts.ts";
import { idempotencyKeySchema, personalCodeField } from "./cards.ts";

/** Prepaid products, sales, uses and claims (ADR 0049). Amounts: units, or euro cents. */

export const prepaidProductSchema = z
  .object({
    kind: z.enum(PREPAID_KINDS, { error: "Choisissez un carnet (en unités) ou une carte cadeau (en euros)." }),
    title: z
      .string({ error: "Saisissez un nom." })
      .trim()
      .min(2, "Nom : au moins 2 caractères.")
      .max(80, "Nom : au plus 80 caractères."),
    quantity: z.coerce.number({ error: "Saisissez un nombre." }).int("Nombre entier attendu.").min(1, "Au moins 1."),
    priceCents: z.coerce
      .number({ error: "Saisissez un prix." })
      .int("Prix en centimes attendu.")
      .min(0, "Le prix ne peut pas être négatif.")
      .max(PREPAID_CENTS_MAX * 2, "Prix trop élevé."),
    validityMonths: z.coerce
      .number({ error: "Saisissez une durée de validité." })
      .int("Nombre de mois entier attendu.")
      .min(PREPAID_VALIDITY_MONTHS.min, `Validité : au moins ${PREPAID_VALIDITY_MONTHS.min} mois.`)
      .max(PREPAID_VALIDITY_MONTHS.max, `Validité : au plus ${PREPAID_VALIDITY_MONTHS.max} mois.`),
  })
  .superRefine((v, ctx) => {
    const max = v.kind === "units" ? PREPAID_UNITS_MAX : PREPAID_CENTS_MAX;
    if (v.quantity > max)
      ctx.addIssue({
        code: "custom",
        path: ["quantity"],
        message:
          v.kind === "units" ? `Au plus ${PREPAID_UNITS_MAX} unités par carnet.` : "Au plus 1 500 € par carte cadeau.",
      });
  });

export const prepaidProductActiveSchema = z.object({ isActive: z.boolean({ error: "Actif ou non ?" }) });

/** A sale at the till: to the customer whose code staff read, or as a gift to an e-mail address. */
export const prepaidSaleSchema = z
  .object({
    productId: z.string().uuid("Produit introuvable."),
    paymentMethod: z.enum(PAYMENT_METHODS, { error: "Choisissez le moyen de paiement." }),
    customerCode: personalCodeField,
    giftEmail: z
      .union([emailSchema, z.literal("")])
      .optional()
      .transform((v) => v || null),
    idempotencyKey: idempotencyKeySchema,
  })
  .refine((v) => (v.customerCode === null) !== (v.giftEmail === null), {
    message: "Saisissez le code client, ou l'e-mail de la personne à qui la carte est offerte (pas les deux).",
    path: ["customerCode"],
  });

const prepaidCodeSchema = z.string({ error: "Saisissez le code." }).transform((v, ctx) => {
  const code = parsePrepaidCode(v);
  if (!code) {
    ctx.addIssue({ code: "custom", message: "Ce code n'a pas le bon format : 7 lettres et chiffres." });
    return z.NEVER;
  }
  return code;
});

export const prepaidLookupQuerySchema = z.object({ code: prepaidCodeSchema });

export const prepaidUseSchema = z.object({
  code: prepaidCodeSchema,
  /** Units, or cents for a gift card. */
  amount: z.coerce
    .number({ error: "Saisissez un montant." })
    .int("Montant entier attendu.")
    .min(1, "Le montant doit être positif.")
    .max(PREPAID_CENTS_MAX, "Montant trop élevé."),
  idempotencyKey: idempotencyKeySchema,
});

export const claimSchema = z.object({
  code: z.string({ error: "Saisissez le code." }).transform((v, ctx) => {
    const code = parseClaimCode(v);
    if (!code) {
      ctx.addIssue({ code: "custom", message: "Ce code n'a pas le bon format : 12 lettres et chiffres." });
      return z.NEVER;
    }
    return code;
  }),
});
