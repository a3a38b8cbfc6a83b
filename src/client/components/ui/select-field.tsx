import type { SelectHTMLAttributes } from "react";
import { FieldFrame, type FieldFrameProps } from "./field.tsx";

/** A labelled <select> in the style of Field, with its French error and hint. */
export function SelectField({
  label,
  error,
  hint,
  id,
  className,
  children,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & FieldFrameProps) {
  return (
    <FieldFrame label={label} error={error} hint={hint} id={id} className={className}>
      {({ border, ...control }) => (
        <select
          {...control}
          className={`min-h-12 min-w-0 max-w-full rounded-xl border bg-white px-3 text-base text-stone-900 dark:bg-stone-900 dark:text-stone-100 ${border}`}
          {...props}
        >
          {children}
        </select>
      )}
    </FieldFrame>
  );
}
