import type { TextareaHTMLAttributes } from "react";
import { FieldFrame, type FieldFrameProps, type ValueProps } from "./field.tsx";

/** A labelled <textarea> in the style of Field, with its French error and hint. */
export function TextareaField(props: TextareaHTMLAttributes<HTMLTextAreaElement> & FieldFrameProps & ValueProps) {
  return (
    <FieldFrame {...props}>
      {({ border, ...textarea }) => (
        <textarea
          className={`min-h-28 rounded-xl border bg-white px-4 py-3 text-base text-stone-900 placeholder:text-stone-500 dark:bg-stone-900 dark:text-stone-100 ${border}`}
          {...textarea}
        />
      )}
    </FieldFrame>
  );
}
