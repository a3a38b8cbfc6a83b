import type { ValidationTargets } from "hono";
import { resolver, uniqueSymbol } from "hono-openapi";
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

/**
 * Hono validator backed by a shared zod schema; bad input is a 400 naming the fields. The schema is
 * also attached the way hono-openapi's own validator attaches it, so /api/openapi.json describes
 * every input a route validates without the route saying anything more (lib/openapi.ts).
 */
export const validate = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
  Object.assign(checkWith(target, schema), { [uniqueSymbol]: { target, ...resolver(schema) } });

const checkWith = <T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) =>
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
