import { type FormEvent, type ReactNode, type RefObject, useId } from "react";
import { Button } from "../ui/button.tsx";

const INPUTS = {
  /** A code or a pasted link, in plain text. */
  text: "min-h-12 rounded-xl border bg-white px-4 text-base text-stone-900 placeholder:text-stone-500 dark:bg-stone-950 dark:text-stone-100",
  /** A short code read aloud or copied from a phone: large, spaced, upper case. */
  code: "min-h-14 rounded-xl border bg-white px-4 text-center font-mono text-2xl font-bold uppercase tracking-[0.3em] text-stone-900 placeholder:text-stone-400 dark:bg-stone-950 dark:text-stone-100",
} as const;

/**
 * Typing a code instead of scanning its QR (the counter's code, a reward's code): one input named `code`, its French
 * error announced at once, the button. The caller reads the form and says what is wrong.
 */
export function CodeEntry({
  label,
  placeholder,
  look = "text",
  maxLength,
  inputRef,
  error,
  busy,
  submitLabel,
  onSubmit,
  className = "",
  children,
}: {
  label: string;
  placeholder: string;
  look?: keyof typeof INPUTS;
  maxLength?: number;
  inputRef?: RefObject<HTMLInputElement | null>;
  error: string | null;
  busy: boolean;
  submitLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  className?: string;
  /** Above the label: a heading, where the form stands on its own. */
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <form onSubmit={onSubmit} noValidate className={`flex flex-col gap-3 ${className}`}>
      {children}
      <label htmlFor={id} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
      <input
        ref={inputRef}
        id={id}
        name="code"
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        maxLength={maxLength}
        placeholder={placeholder}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`${INPUTS[look]} ${error ? "border-red-600" : "border-stone-300 dark:border-stone-700"}`}
      />
      {error ? (
        <p id={`${id}-error`} className="text-sm font-medium text-red-700 dark:text-red-400" role="alert">
          {error}
        </p>
      ) : null}
      <Button type="submit" variant="secondary" full isLoading={busy}>
        {submitLabel}
      </Button>
    </form>
  );
}
