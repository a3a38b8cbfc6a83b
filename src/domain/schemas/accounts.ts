import { z } from "zod";

/** Shared by the API and the forms. Every message is what a person reads. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

export const emailSchema = z
  .string({ error: "Saisissez votre adresse e-mail." })
  .trim()
  .toLowerCase()
  .min(1, "Saisissez votre adresse e-mail.")
  .max(254, "Cette adresse e-mail est trop longue.")
  .pipe(z.email({ error: "Cette adresse e-mail n'est pas valide." }));

export const passwordSchema = z
  .string({ error: "Saisissez un mot de passe." })
  .min(PASSWORD_MIN, `Le mot de passe doit contenir au moins ${PASSWORD_MIN} caractères.`)
  .max(PASSWORD_MAX, `Le mot de passe doit contenir au plus ${PASSWORD_MAX} caractères.`);

export const signUpSchema = z.object({ email: emailSchema, password: passwordSchema });
export type SignUpInput = z.infer<typeof signUpSchema>;

export const nameSchema = (label: string) =>
  z
    .string({ error: `Saisissez votre ${label}.` })
    .trim()
    .min(1, `Saisissez votre ${label}.`)
    .max(60, `Votre ${label} doit contenir au plus 60 caractères.`);

/** Today in ISO (YYYY-MM-DD), injectable for tests. */
const isoToday = () => new Date().toISOString().slice(0, 10);

export const birthdaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Date de naissance invalide.")
  .refine((v) => !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v), "Date de naissance invalide.")
  .refine((v) => v >= "1900-01-01" && v <= isoToday(), "Date de naissance invalide.");

export const CONSENT_CHANNELS = ["email", "sms", "push"] as const;
type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/**
 * The exact wording shown beside each consent box. It is stored with each consent
 * (GDPR art. 7(1)), so changing a sentence here changes only future consents.
 */
export const CONSENT_WORDING: Record<ConsentChannel, string> = {
  email: "J'accepte de recevoir par e-mail les offres et nouveautés des commerces dont j'ai la carte.",
  sms: "J'accepte de recevoir par SMS les offres et nouveautés des commerces dont j'ai la carte.",
  push: "J'accepte de recevoir des notifications sur les offres et nouveautés des commerces dont j'ai la carte.",
};

// profileSchema (with the mobile number, libphonenumber-js) lives in ./profile.ts: the sign-in pages do not load it.

// Re-exported for its importers; it lives in a zod-free module so a page can use it without loading zod.
export { safeRedirect } from "../redirect.ts";
