import { type InputHTMLAttributes, type ReactNode, useId, useState } from "react";

/** A control that cannot change (a locked field) looks it, beyond the browser's faint grey. */
export const DISABLED_CONTROL =
  "disabled:cursor-not-allowed disabled:bg-stone-100 disabled:text-stone-600 dark:disabled:bg-stone-800 dark:disabled:text-stone-400";

export type FieldFrameProps = { label: string; error?: string; hint?: string; id?: string; className?: string };

/** `onValue`: the control's new text, for a field whose value a component holds (instead of reading `onChange`'s event). */
export type ValueProps = { onValue?: (value: string) => void };

type Framed = FieldFrameProps & ValueProps;

/** What a control inside a FieldFrame gets: its own props, its id, its ARIA links, its border, `onValue` as onChange. */
type ControlProps<P> = Omit<P, keyof Framed | "children"> & {
  id: string;
  "aria-invalid": true | undefined;
  "aria-describedby": string | undefined;
  border: string;
};

/**
 * The one frame of every form control: label, then the control, then its hint or its French error. It takes the
 * control's props too and hands the control its share (an `onChange` given wins over `onValue`).
 */
export function FieldFrame<P extends Framed>(props: P & { children: (control: ControlProps<P>) => ReactNode }) {
  const { children, label, error, hint, id, className = "", onValue, ...rest } = props;
  const autoId = useId();
  const inputId = id ?? autoId;
  const describedBy =
    [error ? `${inputId}-error` : null, hint ? `${inputId}-hint` : null].filter(Boolean).join(" ") || undefined;
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
        onChange: onValue ? (event: { target: { value: string } }) => onValue(event.target.value) : undefined,
        ...rest,
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

type FieldProps = InputHTMLAttributes<HTMLInputElement> & FieldFrameProps & ValueProps;

export function Field(props: FieldProps) {
  return (
    <FieldFrame {...props}>
      {({ border, ...input }) => (
        <input
          className={`min-h-12 rounded-xl border bg-white px-4 text-base text-stone-900 placeholder:text-stone-500 dark:bg-stone-900 dark:text-stone-100 ${DISABLED_CONTROL} ${border}`}
          {...input}
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

/** An e-mail address field: the e-mail keyboard, autofill, and no capital letter a phone would add first. */
export function EmailField({
  label = "Adresse e-mail",
  ...props
}: Omit<FieldProps, "type" | "label"> & { label?: string }) {
  return <Field label={label} name="email" type="email" autoComplete="email" autoCapitalize="none" {...props} />;
}

/** A whole number on the numeric keypad (`onValue` gets the text typed, empty when cleared). */
export function NumberField(props: Omit<FieldProps, "type">) {
  return <Field type="number" inputMode="numeric" {...props} />;
}

/** A box to tick; `hint` says under its label what ticking it does. */
export function Checkbox({
  label,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: ReactNode }) {
  const id = useId();
  const box = (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        className="mt-1 size-5 shrink-0 accent-brand-700"
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...props}
      />
      <label htmlFor={id} className="text-sm leading-snug text-stone-800 dark:text-stone-200">
        {label}
      </label>
    </div>
  );
  if (!hint) return box;
  return (
    <div>
      {box}
      <p id={`${id}-hint`} className="mt-1 pl-8 text-sm text-stone-600 dark:text-stone-400">
        {hint}
      </p>
    </div>
  );
}
