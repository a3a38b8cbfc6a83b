import { type FormEvent, useState } from "react";
import type { z } from "zod";
import { ApiError } from "./api-client.ts";

/**
 * A form's schema, or a function that loads it: a page whose first screen must be light (/login) keeps zod out of
 * its download and fetches the schema when the form is first touched (see login-page.tsx).
 */
type SchemaSource<S extends z.ZodType> = S | (() => Promise<S>);

const LOAD_FAILED_MESSAGE = "Connexion impossible. Vérifiez votre réseau et réessayez.";

/**
 * The one form pattern: read the form's fields, validate them with the shared zod
 * schema (same French messages as the API), submit, and show field or general
 * errors. Nothing typed is lost on error: inputs stay uncontrolled.
 */
export function useForm<S extends z.ZodType>(
  source: SchemaSource<S>,
  onSubmit: (values: z.output<S>) => Promise<void>,
  read: (form: FormData) => unknown = (form) => Object.fromEntries(form),
) {
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [isSubmitting, setSubmitting] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (isSubmitting) return;
    setFormError(null);
    // Read before any await: the event's currentTarget is gone once the handler has yielded.
    const values = read(new FormData(event.currentTarget));
    let schema: S;
    try {
      schema = typeof source === "function" ? await (source as () => Promise<S>)() : source;
    } catch {
      setFormError(LOAD_FAILED_MESSAGE);
      return;
    }
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      const fields: Record<string, string> = {};
      for (const issue of parsed.error.issues) fields[issue.path.join(".")] ??= issue.message;
      setFieldErrors(fields);
      return;
    }
    setFieldErrors({});
    setSubmitting(true);
    try {
      await onSubmit(parsed.data);
    } catch (error) {
      if (error instanceof ApiError) {
        setFieldErrors(error.fields);
        setFormError(error.message);
      } else {
        setFormError("Une erreur inattendue est survenue. Réessayez.");
      }
    } finally {
      setSubmitting(false);
    }
  };

  return { handleSubmit, fieldErrors, formError, setFormError, isSubmitting };
}
