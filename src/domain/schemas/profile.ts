import { z } from "zod";
import { checkMobileNumber } from "../messages/phone.ts";
import { birthdaySchema, nameSchema } from "./accounts.ts";

/**
 * The profile form (/create-profil, /edit-profil), shared by the API and the form. Its own module: the
 * mobile number's validation loads libphonenumber-js's metadata, which the sign-in and sign-up pages
 * (src/domain/schemas/accounts.ts) do not need.
 */
export const profileSchema = z
  .object({
    firstName: nameSchema("prénom"),
    lastName: nameSchema("nom"),
    birthday: z
      .union([birthdaySchema, z.literal("")])
      .optional()
      .transform((v) => v || null),
    postalCode: z
      .union([
        z
          .string()
          .trim()
          .regex(/^\d{5}$/, "Le code postal doit contenir 5 chiffres."),
        z.literal(""),
      ])
      .optional()
      .transform((v) => v || null),
    /**
     * Mobile number for SMS, stored in E.164 (src/domain/messages/phone.ts). "" removes it;
     * absent leaves it as it is (older clients). SMS consent needs a number.
     */
    phone: z
      .string()
      .max(40, "Ce numéro est trop long.")
      .optional()
      .transform((value, ctx) => {
        if (value === undefined) return undefined;
        if (value.trim() === "") return null;
        const check = checkMobileNumber(value);
        if (!check.ok) {
          ctx.addIssue({ code: "custom", message: check.message });
          return z.NEVER;
        }
        return check.e164;
      }),
    consents: z.object({ email: z.boolean(), sms: z.boolean(), push: z.boolean() }),
  })
  .superRefine((value, ctx) => {
    if (value.consents.sms && value.phone === null) {
      ctx.addIssue({
        code: "custom",
        path: ["phone"],
        message: "Indiquez votre numéro de mobile pour recevoir des SMS.",
      });
    }
  });
export type ProfileInput = z.input<typeof profileSchema>;
