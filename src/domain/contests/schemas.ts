import { z } from "zod";
import { imageDataUrlSchema, optionalText, text } from "../schemas/shops.ts";
import { deviceIdSchema } from "../schemas/cards.ts";
import { CONTEST_KINDS, DEFAULT_ELIGIBILITY, ELIGIBILITIES, HANDOVER_MODES, SPIN_PERIODS } from "./contests.ts";
import { ODDS_SCALE } from "./wheel.ts";

/**
 * Inputs of lots and contests, shared by the API and the forms. Objects are strict: a field that is not listed —
 * a price, a points cost, a purchase condition — is refused, because taking part must stay free (Code de la
 * sécurité intérieure L322-1 and L322-2; Code de la consommation L121-20).
 */

export const LOT_PHOTO_MAX_BYTES = 400 * 1024;

const strictObject = <T extends z.ZodRawShape>(shape: T) =>
  z.strictObject(shape, {
    error: (issue) =>
      issue.code === "unrecognized_keys"
        ? "Champ non autorisé : participer est gratuit et sans condition d'achat."
        : undefined,
  });

const int = (label: string, min: number, max: number) =>
  z.coerce
    .number({ error: `${label} : saisissez un nombre.` })
    .int(`${label} : nombre entier attendu.`)
    .min(min, `${label} : au moins ${min}.`)
    .max(max, `${label} : au plus ${max}.`);

export const prizeLotInputSchema = strictObject({
  name: text("le nom du lot", 2, 80),
  description: optionalText("Description", 1000),
  photo: imageDataUrlSchema(LOT_PHOTO_MAX_BYTES, "Photo")
    .optional()
    .transform((v) => v ?? null),
  /** Commercial value in euro cents (the règlement states it). */
  valueCents: int("Valeur", 0, 10_000_000),
  quantity: int("Quantité", 1, 100_000),
  handover: z.enum(HANDOVER_MODES, { error: "Choisissez comment le lot est remis." }),
  points: int("Points", 1, 100_000)
    .nullish()
    .transform((v) => v ?? null),
  claimDays: int("Délai de retrait", 1, 365),
}).refine((l) => l.handover !== "points" || l.points !== null, {
  message: "Indiquez combien de points le lot crédite.",
  path: ["points"],
});
export type PrizeLotInput = z.input<typeof prizeLotInputSchema>;

const prizeSchema = strictObject({
  lotId: z.string().uuid("Lot introuvable."),
  /** Draw: how many winners get this lot. */
  quantity: int("Nombre de gagnants", 1, 1000).default(1),
  /** Wheel: the slice's chance in basis points (100 = 1 %). */
  oddsBp: int("Chance", 0, ODDS_SCALE).default(0),
});

const instant = (label: string) =>
  z
    .string({ error: `Indiquez ${label}.` })
    .refine((v) => !Number.isNaN(Date.parse(v)), `Indiquez ${label}.`)
    .transform((v) => new Date(v));

export const contestInputSchema = strictObject({
  kind: z.enum(CONTEST_KINDS, { error: "Choisissez le type de jeu." }),
  title: text("le titre du jeu", 3, 100),
  description: optionalText("Description", 2000),
  startsAt: instant("la date de début"),
  endsAt: instant("la date de fin"),
  eligibility: z.enum(ELIGIBILITIES, { error: "Choisissez qui peut participer." }).default(DEFAULT_ELIGIBILITY),
  entriesPerPerson: int("Participations par personne", 1, 10).default(1),
  spinPeriod: z.enum(SPIN_PERIODS, { error: "Choisissez la fréquence." }).default("day"),
  prizes: z.array(prizeSchema).min(1, "Ajoutez au moins un lot.").max(12, "Au plus 12 lots."),
})
  .refine((c) => c.endsAt > c.startsAt, { message: "La fin doit suivre le début.", path: ["endsAt"] })
  .refine((c) => c.kind !== "wheel" || c.prizes.reduce((s, p) => s + p.oddsBp, 0) <= ODDS_SCALE, {
    message: "Les chances des lots dépassent 100 %.",
    path: ["prizes"],
  })
  .refine((c) => c.kind !== "wheel" || c.prizes.every((p) => p.oddsBp > 0), {
    message: "Chaque case de la roue doit avoir une chance de gagner.",
    path: ["prizes"],
  })
  .refine((c) => new Set(c.prizes.map((p) => p.lotId)).size === c.prizes.length, {
    message: "Chaque lot n'apparaît qu'une fois.",
    path: ["prizes"],
  });
export type ContestInput = z.input<typeof contestInputSchema>;
export type ContestValues = z.output<typeof contestInputSchema>;

/**
 * Entering and spinning: consent to marketing is a separate, unticked choice, never a condition (RGPD art. 7(4)).
 * The device id (the one the phone keeps for scans) links accounts on one phone (one-person.ts).
 */
export const enterSchema = strictObject({ marketingConsent: z.boolean().default(false), deviceId: deviceIdSchema });

export const featuredSlotSchema = z.enum(["cajvb", "1-an-giagia", "mabbam-giagia"], { error: "Emplacement inconnu." });
export type FeaturedSlot = z.output<typeof featuredSlotSchema>;
