import { z } from "zod";
import { formatCents, MAX_AMOUNT_CENTS, parseEurosToCents } from "../loyalty/amount.ts";
import { parsePersonalCode } from "../loyalty/personal-code.ts";

/** Issue 29: what tills and integrators send (the API for tills), and the owner's forms for keys and webhooks. */

const API_SCOPES = ["customers:read", "visits:write", "rewards:read", "rewards:redeem"] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS_FR: Record<ApiScope, string> = {
  "customers:read": "Retrouver un client par son code",
  "visits:write": "Créditer un passage ou un montant",
  "rewards:read": "Lister les récompenses",
  "rewards:redeem": "Remettre une récompense",
};

export const apiKeyCreateSchema = z.object({
  name: z
    .string({ error: "Donnez un nom à la clé (par exemple « Caisse du comptoir »)." })
    .trim()
    .min(2, "Nom : au moins 2 caractères.")
    .max(60, "Nom : au plus 60 caractères."),
  scopes: z
    .array(z.enum(API_SCOPES, { error: "Droit inconnu." }))
    .min(1, "Choisissez au moins un droit.")
    .max(API_SCOPES.length)
    .transform((v) => [...new Set(v)]),
});

/** A customer's personal code as a till reads it (« ABCD-EF23 », spaces and dashes allowed). */
const customerCodeSchema = z
  .string({ error: "Code client manquant." })
  .max(40, "Code client invalide.")
  .transform((v, ctx) => {
    const code = parsePersonalCode(v);
    if (!code) {
      ctx.addIssue({ code: "custom", message: "Code client invalide : 8 lettres et chiffres (ex. ABCD-EF23)." });
      return z.NEVER;
    }
    return code;
  })
  .meta({ example: "ABCD-EF23" });

export const tillCreditSchema = z
  .object({
    customerCode: customerCodeSchema,
    amountCents: z
      .number({ error: "Montant en centimes : un nombre entier." })
      .int("Montant en centimes : un nombre entier.")
      .min(1, "Le montant doit être positif.")
      .max(MAX_AMOUNT_CENTS, "Montant trop élevé.")
      .optional()
      .transform((v) => v ?? null)
      .meta({ description: "Le montant du ticket en centimes (carte « selon le montant ») ; absent : un passage." }),
  })
  .meta({ examples: [{ customerCode: "ABCD-EF23", amountCents: 2390 }] });

export const tillRedeemSchema = z
  .object({
    customerCode: customerCodeSchema,
    rewardId: z.string({ error: "Récompense manquante." }).uuid("Récompense introuvable."),
  })
  .meta({ examples: [{ customerCode: "ABCD-EF23", rewardId: "6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f" }] });

export const tillCustomerParam = z.object({ code: customerCodeSchema });

/** The header every write of the till API carries: a retry with the same key gets the first answer. */
export const IDEMPOTENCY_HEADER = "Idempotency-Key";
export const idempotencyHeaderSchema = z
  .string({ error: "En-tête Idempotency-Key manquant : une clé unique par opération (un UUID)." })
  .regex(/^[A-Za-z0-9_-]{8,100}$/, "En-tête Idempotency-Key invalide : 8 à 100 caractères A-Z a-z 0-9 _ -.");

/** The events a shop's webhooks can subscribe to (their Standard Webhooks `type`). */
const WEBHOOK_EVENTS = ["visit.credited", "reward.redeemed", "customer.joined", "contest.won"] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS_FR: Record<WebhookEvent, string> = {
  "visit.credited": "Passage crédité",
  "reward.redeemed": "Récompense remise",
  "customer.joined": "Nouveau client",
  "contest.won": "Lot gagné à un jeu",
};

export const webhookCreateSchema = z.object({
  url: z
    .string({ error: "Saisissez l'adresse qui recevra les événements." })
    .trim()
    .max(500, "Adresse trop longue : 500 caractères au plus.")
    .url("Adresse invalide : elle commence par https://"),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: "Événement inconnu." }))
    .min(1, "Choisissez au moins un événement.")
    .max(WEBHOOK_EVENTS.length)
    .transform((v) => [...new Set(v)]),
});

/** The owner connects the shop's Zettle account: the API key and its client id made in my.zettle.com. */
export const zettleConnectSchema = z.object({
  clientId: z
    .string({ error: "Collez l'identifiant client (client ID) donné avec la clé." })
    .trim()
    .regex(/^[0-9a-fA-F-]{36}$/, "Identifiant client : un UUID comme 6adde977-c34d-4de1-99b2-f6ed3e65431a."),
  apiKey: z
    .string({ error: "Collez la clé API créée dans my.zettle.com." })
    .trim()
    .min(20, "Clé API trop courte : copiez-la en entier avec « Copy key ».")
    .max(4000, "Clé API trop longue.")
    .regex(/^[A-Za-z0-9._-]+$/, "Clé API invalide : copiez-la telle quelle, sans espace."),
});

/** An event the Zettle Pusher API posts (its `payload` is the event's JSON as a string). */
export const zettleEventSchema = z.object({
  organizationUuid: z.string({ error: "organizationUuid manquant." }).min(1).max(100),
  messageId: z.string().max(100).optional(),
  eventName: z.string({ error: "eventName manquant." }).min(1).max(100),
  payload: z.union([z.string().max(1_000_000), z.record(z.string(), z.unknown())], { error: "payload manquant." }),
  timestamp: z.string().max(100).optional(),
});

/** The counter tablet (ADR 0054): the largest amount staff may enter on it, a typo caught before a QR code. */
export const TABLET_MAX_AMOUNT_CENTS = 100_000;
const TABLET_AMOUNT_MESSAGE = `Montant trop élevé : ${formatCents(TABLET_MAX_AMOUNT_CENTS)} au plus sur la tablette.`;

/** The staff PIN that unlocks amount entry on a tablet: 4 to 8 digits. */
const tabletPinSchema = z.string({ error: "Saisissez le code PIN." }).regex(/^\d{4,8}$/, "Code PIN : 4 à 8 chiffres.");

/** The owner pairs a tablet: its name, and the staff PIN. */
export const tabletCreateSchema = z.object({
  name: z
    .string({ error: "Donnez un nom à la tablette (par exemple « Comptoir de l'entrée »)." })
    .trim()
    .min(2, "Nom : au moins 2 caractères.")
    .max(60, "Nom : au plus 60 caractères."),
  pin: tabletPinSchema,
});

/** The one-time code of a pairing link (256 random bits, base64url). */
export const tabletPairSchema = z.object({
  code: z
    .string({ error: "Lien d'appairage incomplet." })
    .regex(/^[A-Za-z0-9_-]{43}$/, "Ce lien d'appairage n'est pas valable : demandez-en un nouveau."),
});

const tabletAmountCents = z
  .number({ error: "Montant en centimes : un nombre entier." })
  .int("Montant en centimes : un nombre entier.")
  .min(1, "Le montant doit être positif.")
  .max(TABLET_MAX_AMOUNT_CENTS, TABLET_AMOUNT_MESSAGE);

/** POST /api/tablet/amount-codes: the PIN and the amount, in cents. */
export const tabletAmountSchema = z.object({ pin: tabletPinSchema, amountCents: tabletAmountCents });

/** The tablet's form: the amount in euros as staff type it (« 12,50 »), sent in cents. */
export const tabletAmountFormSchema = z.object({
  pin: tabletPinSchema,
  amountCents: z
    .string({ error: "Saisissez le montant." })
    .max(20, "Montant en euros, par exemple 12,50.")
    .transform((v, ctx) => {
      const cents = parseEurosToCents(v);
      if (cents === null || cents < 1) {
        ctx.addIssue({ code: "custom", message: "Montant en euros, par exemple 12,50." });
        return z.NEVER;
      }
      return cents;
    })
    .pipe(tabletAmountCents),
});

/** GET /api/tablet/amount-codes/:receiptId: a code the tablet made (its receipt id). */
export const tabletReceiptParam = z.object({
  receiptId: z.string().regex(/^TAB-[A-Za-z0-9_-]{16}$/, "Code introuvable."),
});
