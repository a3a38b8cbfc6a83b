import type { FormEvent, ReactNode, Ref } from "react";
import { Button } from "./button.tsx";
import { Notice } from "./notice.tsx";

/** What the markup needs of a form made with useForm (lib/use-form.ts). */
type FormState = {
  handleSubmit: (event: FormEvent<HTMLFormElement>) => unknown;
  formError: string | null;
  isSubmitting: boolean;
};

/**
 * The markup of the one form pattern (lib/use-form.ts): a form the browser does not validate (the shared zod schema
 * does, in French), its general error first, then its fields; `submit`, the label of its full-width submit button,
 * last.
 */
export function Form({
  form,
  ref,
  className = "flex flex-col gap-4",
  onChange,
  submit,
  children,
}: {
  form: FormState;
  ref?: Ref<HTMLFormElement>;
  className?: string;
  /** Any change to a field (settings pages clear their « Enregistré » with it). */
  onChange?: () => void;
  submit?: string;
  children: ReactNode;
}) {
  return (
    <form ref={ref} onSubmit={form.handleSubmit} onChange={onChange} className={className} noValidate>
      {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
      {children}
      {submit ? (
        <Button type="submit" full isLoading={form.isSubmitting}>
          {submit}
        </Button>
      ) : null}
    </form>
  );
}
