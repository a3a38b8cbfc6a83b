import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";

export type FieldFrameProps = { label: string; error?: string; hint?: string; id?: string; className?: string };

/** What a control inside a FieldFrame needs: its id, its ARIA links and its border. */
export type ControlProps = {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  border: string;
};

/** The one frame of every form control: label, then the control, then its hint or its French error. */
export function FieldFrame({
  label,
  error,
  hint,
  id,
  className = "",
  children,
}: FieldFrameProps & { children: (control: ControlProps) => ReactNode }) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy = [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className={`flex flex-col gap-1.5 ${className}`}>
      <label htmlFor={inputId} className="text-sm font-medium text-stone-800 dark:text-stone-200">
        {label}
      </label>
      {children({
        id: inputId,
        "aria-invalid": error ? true : undefined,
        "aria-describedby": describedBy,
        border: error ? "border-red-600" : "border-stone-300 dark:border-stone-700",
      })}
      {hint && !error ? (
        <p id={`${inputId}-hint`} className="text-sm text-stone-600 dark:text-stone-400">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${inputId}-error`} className="text-sm font-medium text-red-700 dark:text-red-400">
          {error}
        </p>
      ) : null}
    </div>
  );
}

type FieldProps = InputHTMLAttributes<HTMLInputElement> & FieldFrameProps;

export function Field({ label, error, hint, id, className, ...props }: FieldProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint} id={id} className={className}>
      {({ border, ...control }) => (
        <input
          {...control}
          className={`min-h-12 rounded-xl border bg-white px-4 text-base text-stone-900 placeholder:text-stone-500 dark:bg-stone-900 dark:text-stone-100 ${border}`}
          {...props}
        />
      )}
    </FieldFrame>
  );
}

export function PasswordField(props: Omit<FieldProps, "type">) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <Field {...props} type={visible ? "text" : "password"} />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        className="absolute right-2 top-8 min-h-10 rounded-lg px-3 text-sm font-medium text-brand-800 dark:text-brand-200"
        aria-label={visible ? "Masquer le mot de passe" : "Afficher le mot de passe"}
      >
        {visible ? "Masquer" : "Afficher"}
      </button>
    </div>
  );
}

export function Checkbox({ label, ...props }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input id={id} type="checkbox" className="mt-1 size-5 shrink-0 accent-brand-700" {...props} />
      <label htmlFor={id} className="text-sm leading-snug text-stone-800 dark:text-stone-200">
        {label}
      </label>
    </div>
  );
}
