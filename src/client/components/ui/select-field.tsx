import type { SelectHTMLAttributes } from "react";
import { DISABLED_CONTROL, FieldFrame, type FieldFrameProps, type ValueProps } from "./field.tsx";

type SelectOption = { value: string | number; label: string; disabled?: boolean };

/**
 * A labelled <select> in the style of Field, with its French error and hint. Its choices: `options`, after any
 * `children` (a first « none » choice, say).
 */
export function SelectField({
  options = [],
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & FieldFrameProps & ValueProps & { options?: readonly SelectOption[] }) {
  return (
    <FieldFrame {...props}>
      {({ border, ...select }) => (
        <select
          className={`min-h-12 min-w-0 max-w-full rounded-xl border bg-white px-3 text-base text-stone-900 dark:bg-stone-900 dark:text-stone-100 ${DISABLED_CONTROL} ${border}`}
          {...select}
        >
          {children}
          {options.map((option) => (
            <option key={option.value} value={String(option.value)} disabled={option.disabled}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </FieldFrame>
  );
}

/** The choices of a select from a list of values and their French labels, in the list's order. */
export const labelOptions = <V extends string>(values: readonly V[], labels: Record<V, string>) =>
  values.map((value) => ({ value, label: labels[value] }));
