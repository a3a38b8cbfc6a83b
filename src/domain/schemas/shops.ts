import { z } from "zod";
import { AMOUNT_ROUNDINGS, EARN_BY } from "../loyalty/amount.ts";
import { rangesOverlap, type TimeRange } from "../loyalty/hours.ts";
import { isValidSiret } from "../loyalty/shop-text.ts";
import { emailSchema } from "./accounts.ts";

/** Shared by the API and the forms of shops. Every message is what a person reads. */

export const SHOP_CATEGORIES = [
  { value: "boulangerie", label: "Boulangerie – Pâtisserie" },
  { value: "cafe", label: "Café – Bar" },
  { value: "restaurant", label: "Restaurant" },
  { value: "epicerie", label: "Épicerie – Primeur" },
  { value: "boucherie", label: "Boucherie – Charcuterie" },
  { value: "fromagerie", label: "Fromagerie – Caviste" },
  { value: "fleuriste", label: "Fleuriste" },
  { value: "coiffure", label: "Coiffure – Beauté" },
  { value: "mode", label: "Mode – Accessoires" },
  { value: "librairie", label: "Librairie – Papeterie" },
  { value: "sport", label: "Sport – Loisirs" },
  { value: "sante", label: "Pharmacie – Bien-être" },
  { value: "services", label: "Services" },
  { value: "autre", label: "Autre commerce" },
] as const;
export type ShopCategory = (typeof SHOP_CATEGORIES)[number]["value"];
export const SHOP_CATEGORY_VALUES = SHOP_CATEGORIES.map((c) => c.value) as [ShopCategory, ...ShopCategory[]];
export const categoryLabelFr = (value: string) => SHOP_CATEGORIES.find((c) => c.value === value)?.label ?? "Commerce";

export const STAMP_ICONS = ["star", "heart", "coffee", "croissant", "scissors", "flower", "check", "gift"] as const;
export type StampIcon = (typeof STAMP_ICONS)[number];

/** Images are stored as data URLs in the database (see docs/decisions/0010): small, typed, counted in bytes. */
export const LOGO_MAX_BYTES = 200 * 1024;
/** The logo for Apple Wallet (PNG only): a square of this many pixels (a 50-point-high logo at @3x), this heavy at most. */
export const WALLET_LOGO_PIXELS = 150;
const WALLET_LOGO_MAX_BYTES = 96 * 1024;
export const COVER_MAX_BYTES = 800 * 1024;

export const text = (label: string, min: number, max: number) =>
  z
    .string({ error: `Saisissez ${label}.` })
    .trim()
    .min(1, `Saisissez ${label}.`)
    .min(min, `${label[0]?.toUpperCase()}${label.slice(1)} : au moins ${min} caractères.`)
    .max(max, `${label[0]?.toUpperCase()}${label.slice(1)} : au plus ${max} caractères.`);

export const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} : au plus ${max} caractères.`)
    .nullish()
    .transform((v) => v || null);

const shopNameSchema = text("le nom de la boutique", 2, 80);
const postalCodeSchema = z
  .string({ error: "Saisissez le code postal." })
  .trim()
  .regex(/^\d{5}$/, "Le code postal doit contenir 5 chiffres.");

/** French numbers: 10 digits from 0, or +33 / 0033 followed by 9 digits; stored as 0X XX XX XX XX. */
export const phoneSchema = z
  .string({ error: "Saisissez le numéro de téléphone." })
  .trim()
  .transform((v) => v.replace(/[\s.\-()]/g, "").replace(/^(\+33|0033)/, "0"))
  .refine((v) => /^0[1-9]\d{8}$/.test(v), "Le numéro de téléphone doit contenir 10 chiffres (ex. 01 23 45 67 89).")
  .transform((v) => v.replace(/(\d{2})(?=\d)/g, "$1 "));

const siretSchema = z
  .string()
  .trim()
  .transform((v) => v.replace(/\s/g, ""))
  .refine((v) => v === "" || /^\d{14}$/.test(v), "Le SIRET doit contenir 14 chiffres.")
  .refine((v) => v === "" || isValidSiret(v), "Ce numéro SIRET n'est pas valide (vérifiez les chiffres).")
  .nullish()
  .transform((v) => v || null);

const latSchema = z.coerce.number({ error: "Latitude invalide." }).min(-90, "Latitude invalide.").max(90, "Latitude invalide.");
const lngSchema = z.coerce.number({ error: "Longitude invalide." }).min(-180, "Longitude invalide.").max(180, "Longitude invalide.");

/** A pin on the map: both or neither (no geocoding service is reachable from Fidèle). */
const positionFields = {
  lat: latSchema.nullable().optional(),
  lng: lngSchema.nullable().optional(),
};
const bothOrNeither = (v: { lat?: number | null; lng?: number | null }) => (v.lat == null) === (v.lng == null);

export const shopRegistrationSchema = z
  .object({
    name: shopNameSchema,
    category: z.enum(SHOP_CATEGORY_VALUES, { error: "Choisissez une catégorie." }),
    address: text("l'adresse", 3, 160),
    city: text("la ville", 1, 80),
    postalCode: postalCodeSchema,
    phone: phoneSchema,
    siret: siretSchema,
    ...positionFields,
  })
  .refine(bothOrNeither, { message: "Placez le repère sur la carte ou laissez la position vide.", path: ["lat"] });
export type ShopRegistration = z.output<typeof shopRegistrationSchema>;

function dataUrlBytes(url: string): number {
  const comma = url.indexOf(",");
  const b64 = url.slice(comma + 1);
  return Math.floor((b64.length * 3) / 4) - (b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0);
}

export const imageDataUrlSchema = (maxBytes: number, label: string) =>
  z
    .string()
    .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+={0,2}$/, `${label} : choisissez une image PNG, JPEG ou WebP.`)
    .refine((v) => dataUrlBytes(v) <= maxBytes, `${label} : l'image doit peser au plus ${Math.round(maxBytes / 1024)} Ko.`)
    .nullable();

/** A PNG data URL whose bytes really start as a PNG does (Wallet refuses anything else). */
const walletLogoSchema = z
  .string()
  .regex(/^data:image\/png;base64,iVBORw0KGgo[A-Za-z0-9+/]*={0,2}$/, "Logo du portefeuille : image PNG attendue.")
  .refine((v) => dataUrlBytes(v) <= WALLET_LOGO_MAX_BYTES, "Logo du portefeuille : image trop lourde.")
  .nullable();

const httpsUrl = (label: string) =>
  z
    .string()
    .trim()
    .max(300, `${label} : lien trop long.`)
    .refine((v) => v === "" || /^https?:\/\/[^\s/$.?#].[^\s]*$/i.test(v), `${label} : saisissez un lien complet (https://…).`)
    .nullish()
    .transform((v) => v || null);

const shopLinksSchema = z.object({
  website: httpsUrl("Site web"),
  instagram: httpsUrl("Instagram"),
  facebook: httpsUrl("Facebook"),
  tiktok: httpsUrl("TikTok"),
});
export type ShopLinks = z.output<typeof shopLinksSchema>;

/** /admin/ma-boutique: what shoppers see on the shop page. */
export const shopPageSchema = z
  .object({
    name: shopNameSchema,
    category: z.enum(SHOP_CATEGORY_VALUES, { error: "Choisissez une catégorie." }),
    description: optionalText("La description", 2000),
    address: text("l'adresse", 3, 160),
    city: text("la ville", 1, 80),
    postalCode: postalCodeSchema,
    phone: phoneSchema,
    ...positionFields,
    logo: imageDataUrlSchema(LOGO_MAX_BYTES, "Logo"),
    /** Sent when the logo is chosen (its PNG for Apple Wallet); absent, the one kept goes on with an unchanged logo. */
    walletLogo: walletLogoSchema.optional(),
    cover: imageDataUrlSchema(COVER_MAX_BYTES, "Photo de couverture"),
    links: shopLinksSchema,
  })
  .refine(bothOrNeither, { message: "Placez le repère sur la carte ou laissez la position vide.", path: ["lat"] });

/** /admin/edit-societe: the legal identity (mentions légales of the shop). */
export const shopLegalSchema = z.object({
  legalName: text("la raison sociale", 2, 120),
  legalForm: optionalText("La forme juridique", 60),
  siret: siretSchema,
  vatNumber: z
    .string()
    .trim()
    .transform((v) => v.replace(/\s/g, "").toUpperCase())
    .refine((v) => v === "" || /^FR[0-9A-Z]{2}\d{9}$/.test(v), "Le numéro de TVA doit être de la forme FR + 2 caractères + 9 chiffres.")
    .nullish()
    .transform((v) => v || null),
  shareCapital: optionalText("Le capital social", 40),
  rcs: optionalText("Le RCS", 80),
  legalAddress: optionalText("L'adresse du siège", 200),
  director: optionalText("Le nom du dirigeant", 120),
  contactEmail: z.union([emailSchema, z.literal(""), z.null()]).optional().transform((v) => v || null),
});

const timeSchema = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$|^24:00$/, "Heure invalide (HH:MM).");

const rangeSchema = z
  .object({ open: timeSchema, close: timeSchema })
  .refine((r) => r.open !== r.close, { message: "L'ouverture et la fermeture doivent différer.", path: ["close"] })
  .refine((r) => r.open !== "24:00", { message: "Heure d'ouverture invalide.", path: ["open"] });

const daySchema = z
  .array(rangeSchema)
  .max(4, "Quatre plages au plus par jour.")
  .refine((ranges) => !rangesOverlap(ranges as TimeRange[]), "Des plages horaires se chevauchent.");

export const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Date invalide.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "Date invalide.");

const closureSchema = z
  .object({
    startDate: dateSchema,
    endDate: dateSchema,
    reason: z.string().trim().max(80, "Motif : au plus 80 caractères.").default(""),
  })
  .refine((c) => c.startDate <= c.endDate, { message: "La fin doit suivre le début.", path: ["endDate"] });

/** /admin/horaires: seven days (Monday first) and exceptional closures. */
export const shopHoursSchema = z.object({
  weekly: z.array(daySchema).length(7, "Les horaires doivent couvrir les sept jours."),
  closures: z.array(closureSchema).max(60, "Soixante fermetures au plus."),
});

const hexColor = (label: string) => z.string().regex(/^#[0-9a-fA-F]{6}$/, `${label} : couleur invalide (#RRVVBB).`);

const cardDesignSchema = z.object({
  background: hexColor("Fond"),
  foreground: hexColor("Texte"),
  accent: hexColor("Accent"),
  stampIcon: z.enum(STAMP_ICONS, { error: "Choisissez une icône de tampon." }),
});
export type CardDesign = z.output<typeof cardDesignSchema>;
export const DEFAULT_CARD_DESIGN: CardDesign = { background: "#0f766e", foreground: "#ffffff", accent: "#f59e0b", stampIcon: "star" };

/** /admin/creativcard: the card's rules and design. */
export const cardSettingsSchema = z.object({
  mode: z.enum(["stamps", "points"], { error: "Choisissez tampons ou points." }),
  stampsGoal: z.coerce.number().int("Nombre entier attendu.").min(3, "Au moins 3 tampons.").max(50, "Au plus 50 tampons."),
  pointsPerVisit: z.coerce.number().int("Nombre entier attendu.").min(1, "Au moins 1 point.").max(1000, "Au plus 1 000 points."),
  cooldownMinutes: z.coerce
    .number()
    .int("Nombre entier attendu.")
    .min(0, "Le délai ne peut pas être négatif.")
    .max(7 * 24 * 60, "Le délai ne peut pas dépasser 7 jours."),
  dailyCap: z.coerce.number().int("Nombre entier attendu.").min(1, "Au moins 1 passage par jour.").max(20, "Au plus 20 passages par jour."),
  allowStaticPoster: z.boolean(),
  /** A visit scanned without network counts when sent within the code's validity plus this (0: never). */
  offlineGraceMinutes: z.coerce
    .number()
    .int("Nombre entier attendu.")
    .min(0, "Le délai ne peut pas être négatif.")
    .max(240, "Le délai ne peut pas dépasser 4 heures.")
    .optional(),
  design: cardDesignSchema,
  /**
   * A team member's correction larger than this waits for the owner or a manager; empty or null: a visit's worth
   * (ADR 0036). Kept as is when absent, as are the two below.
   */
  adjustmentLimit: z
    .union([
      z.literal("").transform(() => null),
      z.null(),
      z.coerce
        .number({ error: "Saisissez un nombre." })
        .int("Nombre entier attendu.")
        .min(1, "Au moins 1.")
        .max(10_000, "Au plus 10 000."),
    ])
    .optional(),
  /** A team member's corrections a day beyond which each waits for approval (0: every one waits). */
  staffAdjustmentsPerDay: z.coerce
    .number({ error: "Saisissez un nombre." })
    .int("Nombre entier attendu.")
    .min(0, "Au moins 0.")
    .max(50, "Au plus 50 par jour.")
    .optional(),
  /** Whether a team member's correction moves the lifetime total (VIP levels) too. */
  staffAdjustmentsLifetime: z.boolean().optional(),
  /** A points card earns by visit or by the amount spent (issue 29); kept as is when absent, as are the three below. */
  earnBy: z.enum(EARN_BY, { error: "Choisissez : par passage ou selon le montant." }).optional(),
  pointsPerEuro: z.coerce
    .number({ error: "Saisissez un nombre." })
    .int("Nombre entier attendu.")
    .min(1, "Au moins 1 point par euro.")
    .max(100, "Au plus 100 points par euro.")
    .optional(),
  amountRounding: z.enum(AMOUNT_ROUNDINGS, { error: "Choisissez un arrondi." }).optional(),
  /** How long after it is printed a receipt code counts. */
  receiptWindowMinutes: z.coerce
    .number({ error: "Saisissez un nombre." })
    .int("Nombre entier attendu.")
    .min(5, "Au moins 5 minutes.")
    .max(43_200, "Au plus 30 jours.")
    .optional(),
});

/** /admin/points-double. */
export const doublePointsSchema = z
  .object({
    label: text("le nom de l'opération", 2, 60),
    startDate: z.union([dateSchema, z.literal(""), z.null()]).optional().transform((v) => v || null),
    endDate: z.union([dateSchema, z.literal(""), z.null()]).optional().transform((v) => v || null),
    weekdays: z
      .array(z.number().int().min(1, "Jour invalide.").max(7, "Jour invalide."))
      .max(7)
      .default([])
      .transform((v) => [...new Set(v)].sort()),
    startTime: z.union([timeSchema, z.literal(""), z.null()]).optional().transform((v) => v || null),
    endTime: z.union([timeSchema, z.literal(""), z.null()]).optional().transform((v) => v || null),
    multiplier: z.coerce.number().int("Nombre entier attendu.").min(2, "Multiplicateur : au moins ×2.").max(5, "Multiplicateur : au plus ×5."),
    isActive: z.boolean().default(true),
  })
  .refine((p) => !p.startDate || !p.endDate || p.startDate <= p.endDate, { message: "La fin doit suivre le début.", path: ["endDate"] })
  .refine((p) => (p.startTime === null) === (p.endTime === null), {
    message: "Donnez l'heure de début et de fin, ou aucune.",
    path: ["endTime"],
  })
  .refine((p) => p.startTime === null || p.startTime !== p.endTime, { message: "Les heures doivent différer.", path: ["endTime"] });

const limitSchema = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);
const offsetSchema = z.coerce.number().int().min(0).max(100_000).default(0);

/** GET /api/shops and /api/shops/nearby. */
export const shopSearchSchema = z
  .object({
    q: z.string().trim().max(80, "Recherche trop longue.").optional(),
    city: z.string().trim().max(80).optional(),
    category: z.enum(SHOP_CATEGORY_VALUES, { error: "Catégorie inconnue." }).optional(),
    lat: latSchema.optional(),
    lng: lngSchema.optional(),
    radiusKm: z.coerce.number().min(0.1).max(500).optional(),
    limit: limitSchema(50, 20),
    offset: offsetSchema,
  })
  .refine(bothOrNeither, { message: "Position incomplète.", path: ["lat"] });

export const reviewSchema = z.object({
  rating: z.coerce.number().int("Note entière attendue.").min(1, "Donnez une note de 1 à 5.").max(5, "Donnez une note de 1 à 5."),
  comment: z.string().trim().max(1000, "Commentaire : au plus 1 000 caractères.").nullish().transform((v) => v || null),
});
export type ReviewInput = z.input<typeof reviewSchema>;

export const suspendShopSchema = z.object({
  reason: text("le motif", 3, 300),
});

export const invitationSchema = z.object({
  email: emailSchema,
  role: z.enum(["member", "admin"], { error: "Rôle inconnu." }).default("member"),
});

export const paginationSchema = z.object({ limit: limitSchema(100, 50), offset: offsetSchema });
