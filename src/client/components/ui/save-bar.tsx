import type { ReactNode } from "react";
import { Button } from "./button.tsx";

/** Tailwind sees whole class names only: one per breakpoint where the bar joins the page's flow. */
const BARS = {
  sm: "sticky bottom-0 -mx-4 border-t border-stone-200 bg-stone-50/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0 dark:border-stone-800 dark:bg-stone-950/95",
  md: "sticky bottom-0 -mx-4 border-t border-stone-200 bg-stone-50/95 px-4 py-3 backdrop-blur md:static md:mx-0 md:border-0 md:bg-transparent md:p-0 dark:border-stone-800 dark:bg-stone-950/95",
} as const;

/**
 * The submit button of a long form: stuck to the bottom of a phone's screen so it is always in reach, in the page's
 * flow from `sm` up (`md` for a form with a side column).
 */
export function SaveBar({
  isLoading,
  from = "sm",
  children,
}: {
  isLoading: boolean;
  from?: keyof typeof BARS;
  children: ReactNode;
}) {
  return (
    <div className={BARS[from]}>
      <Button type="submit" full isLoading={isLoading}>
        {children}
      </Button>
    </div>
  );
}
