import { z } from "zod";
import { emailSchema } from "../../../domain/schemas/accounts.ts";

/** The sign-in forms' schemas, loaded lazily by login-page.tsx (zod stays out of /login's first download). */
export const passwordLoginSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, "Saisissez votre mot de passe."),
});
export const codeRequestSchema = z.object({ email: emailSchema });
export const codeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^\d{6}$/, "Le code contient 6 chiffres."),
});
export const totpSchema = z.object({
  code: z.string().trim().min(6, "Saisissez le code à 6 chiffres de votre application.").max(20),
});
