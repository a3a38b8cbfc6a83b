import type { ValidationTargets } from "hono";
import { validator } from "hono/validator";
import type { z } from "zod";
import { AppError } from "../../domain/errors.ts";

/** zod issues → { field: first French message }, naming every bad field. */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Hono validator backed by a shared zod schema; bad input is a 400 naming the fields. */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  validator(target, (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      const fields = fieldErrors(parsed.error);
      throw new AppError("VALIDATION", {
        message: `invalid ${target}: ${Object.keys(fields).join(", ")}`,
        userMessage: Object.values(fields)[0] ?? "Certaines informations sont invalides.",
        fields,
      });
    }
    return parsed.data as z.output<T>;
  });
