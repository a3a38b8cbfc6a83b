import { z } from "zod";
import { ADJUSTMENT_STATUSES } from "../loyalty/adjustments.ts";
import { formatCents, MAX_AMOUNT_CENTS, parseEurosToCents } from "../loyalty/amount.ts";
import { LEDGER_KINDS } from "../loyalty/ledger.ts";
import { parsePersonalCode } from "../loyalty/personal-code.ts";
import { SCAN_OUTCOMES } from "../loyalty/scan-rules.ts";
import { normaliseShortCode } from "../loyalty/short-code.ts";
import { emailSchema } from "./accounts.ts";

/** Shared by the API and the forms of cards, scans and the ledger. */

/** A client-made key (a UUID) that makes a retried request return its first answer. */
export const idempotencyKeySchema = z
  .string({ error: "Clé de requête manquante." })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, "Clé de requête invalide.");

/** An amount spent, in cents (a till's own unit): 1 cent to 10 000 €. */
const amountCentsSchema = z.coerce
  .number({ error: "Saisissez le montant en centimes." })
  .int("Montant en centimes : un nombre entier.")
  .min(1, "Le montant doit être positif.")
  .max(MAX_AMOUNT_CENTS, `Montant trop élevé : ${formatCents(MAX_AMOUNT_CENTS)} au plus.`);

/** The id a phone keeps in localStorage, so many accounts on one device can be noticed. */
export const deviceIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{8,100}$/, "Identifiant d'appareil invalide.")
  .optional()
  .transform((v) => v ?? null);

const scanUidSchema = z
  .string({ error: "Code de boutique manquant." })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "Ce code ne correspond à aucune boutique Fidèle.");

export const scanRequestSchema = z
  .object({
    scanUid: scanUidSchema,
    /** The rotating token (?t=) of the counter screen. */
    token: z
      .string()
      .max(64)
      .optional()
      .transform((v) => v || null),
    /** The static poster's signature (?p=). */
    poster: z
      .string()
      .max(64)
      .optional()
      .transform((v) => v || null),
    /** The scan claim got when the code was opened signed out (POST /api/cards/scan-claims). */
    claim: z
      .string()
      .max(200)
      .optional()
      .transform((v) => v || null),
    deviceId: deviceIdSchema,
    idempotencyKey: idempotencyKeySchema,
    /** Set when the phone scanned the code without network and sends it later: when it was scanned. */
    offlineAt: z.iso
      .datetime({ offset: true, error: "Date du passage hors ligne invalide." })
      .optional()
      .transform((v) => v ?? null),
  })
  .refine((s) => s.token !== null || s.poster !== null, {
    message: "Ce code est incomplet : scannez le code affiché au comptoir.",
    path: ["token"],
  });
export type ScanRequestInput = z.input<typeof scanRequestSchema>;

/** /ticket: the code printed on a receipt (issue 29, ADR 0053). */
export const receiptRequestSchema = z.object({
  code: z
    .string({ error: "Scannez le QR code imprimé sur votre ticket." })
    .min(1, "Scannez le QR code imprimé sur votre ticket.")
    .max(200, "Ce code de ticket n'est pas valable."),
  deviceId: deviceIdSchema,
  idempotencyKey: idempotencyKeySchema,
});

/** A counter code opened signed out: the claim that keeps it good while the person signs in or up. */
export const scanClaimRequestSchema = z.object({
  scanUid: scanUidSchema,
  token: z.string({ error: "Ce code est incomplet : scannez le code affiché au comptoir." }).min(1).max(64),
});
export type ScanClaimRequestInput = z.input<typeof scanClaimRequestSchema>;

/** /scanner: the short code shown under the counter's QR code, typed. */
export const shortCodeRequestSchema = z.object({
  code: z
    .string({ error: "Tapez le code affiché sous le QR code du comptoir." })
    .max(20, "Ce code est trop long : il a 6 caractères.")
    .transform((v, ctx) => {
      const code = normaliseShortCode(v);
      if (!code) {
        ctx.addIssue({
          code: "custom",
          message: "Le code du comptoir a 6 caractères (lettres et chiffres), par exemple K7M 4PX.",
        });
        return z.NEVER;
      }
      return code;
    }),
});
export type ShortCodeRequestInput = z.input<typeof shortCodeRequestSchema>;

/** A customer's personal code typed or scanned at the counter (empty: none). */
export const personalCodeField = z
  .string()
  .max(40, "Code client invalide.")
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return null;
    const code = parsePersonalCode(v);
    if (!code) {
      ctx.addIssue({ code: "custom", message: "Code client invalide : 8 lettres et chiffres (ex. ABCD-EF23)." });
      return z.NEVER;
    }
    return code;
  });

/**
 * /manager: credit a visit for a customer whose phone has no camera: by the personal code the customer shows
 * (« Ma carte client », anyone), or by e-mail (only someone already a customer of the shop).
 */
const creditVisitFields = {
  code: personalCodeField,
  email: z
    .union([emailSchema, z.literal("")])
    .optional()
    .transform((v) => v || null),
  /** The amount spent, for a card that earns by amount (issue 29). */
  amountCents: amountCentsSchema.optional().transform((v) => v ?? null),
};
const hasCodeOrEmail = (v: { code: string | null; email: string | null }) => v.code !== null || v.email !== null;
const codeOrEmailMessage = {
  message: "Saisissez le code client (ou l'e-mail d'un client de la boutique).",
  path: ["code"],
};

/** The counter's amount field: euros as staff type them (« 12,50 »), sent in cents. */
const euroAmountField = z
  .string()
  .max(20, "Montant invalide.")
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v.trim() === "") return null;
    const cents = parseEurosToCents(v);
    if (cents === null || cents < 1 || cents > MAX_AMOUNT_CENTS) {
      ctx.addIssue({ code: "custom", message: "Montant en euros, par exemple 12,50." });
      return z.NEVER;
    }
    return cents;
  });

/** The counter's form (the page adds the request key). */
export const creditVisitFormSchema = z
  .object({ ...creditVisitFields, amountCents: euroAmountField })
  .refine(hasCodeOrEmail, codeOrEmailMessage);
export const creditVisitSchema = z
  .object({ ...creditVisitFields, idempotencyKey: idempotencyKeySchema })
  .refine(hasCodeOrEmail, codeOrEmailMessage);
export type CreditVisitInput = z.input<typeof creditVisitSchema>;

/** /manager: correct a mistake; the reason is kept in the ledger. */
export const adjustmentSchema = z.object({
  cardId: z.string().uuid("Carte inconnue."),
  delta: z.coerce
    .number({ error: "Saisissez un nombre entier, négatif pour retirer." })
    .int("Nombre entier attendu.")
    .min(-10_000, "Correction trop grande.")
    .max(10_000, "Correction trop grande.")
    .refine((v) => v !== 0, "La correction ne peut pas être nulle."),
  reason: z
    .string({ error: "Saisissez un motif." })
    .trim()
    .min(3, "Motif : au moins 3 caractères.")
    .max(200, "Motif : au plus 200 caractères."),
  idempotencyKey: idempotencyKeySchema,
});
export type AdjustmentInput = z.input<typeof adjustmentSchema>;

/** GET …/adjustments: the owner's feed of corrections (ADR 0036). */
export const adjustmentsQuerySchema = z.object({
  status: z.enum(ADJUSTMENT_STATUSES, { error: "Statut inconnu." }).optional(),
  alerts: z
    .enum(["1", "0", "true", "false"])
    .optional()
    .transform((v) => v === "1" || v === "true"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

const limit = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);
const offset = z.coerce.number().int().min(0).max(100_000).default(0);
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "Date invalide (AAAA-MM-JJ).");
const flag = z
  .enum(["1", "0", "true", "false"])
  .optional()
  .transform((v) => v === "1" || v === "true");

/** GET /api/cards/activity: newest first, paged by the last entry's time. */
export const activityQuerySchema = z.object({
  limit: limit(100, 30),
  before: z.string().datetime({ offset: true, error: "Curseur invalide." }).optional(),
  kind: z.enum(LEDGER_KINDS).optional(),
});

export const CUSTOMER_SORTS = ["lastVisit", "points", "lifetime", "visits", "name", "since"] as const;

/** GET /api/backoffice/shops/:shopId/customers (+ .csv). */
export const customersQuerySchema = z.object({
  q: z.string().trim().max(80).optional(),
  sort: z.enum(CUSTOMER_SORTS).default("lastVisit"),
  order: z.enum(["asc", "desc"]).default("desc"),
  limit: limit(200, 50),
  offset,
});

/** GET /api/backoffice/shops/:shopId/scans (+ .csv). Dates are local to the shop, inclusive. */
export const scansQuerySchema = z
  .object({
    outcome: z.enum(SCAN_OUTCOMES).optional(),
    from: isoDate.optional(),
    to: isoDate.optional(),
    flagged: flag,
    cardId: z.string().uuid().optional(),
    limit: limit(500, 100),
    offset,
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: "La fin doit suivre le début.", path: ["to"] });

export const dashboardQuerySchema = z.object({ days: z.coerce.number().int().min(7).max(365).default(30) });
