import type { ButtonHTMLAttributes } from "react";
import { Link, type LinkProps } from "react-router";

type Variant = "primary" | "secondary" | "ghost" | "danger";

const base =
  "inline-flex min-h-12 items-center justify-center gap-2 rounded-xl px-5 py-2 text-center text-base font-semibold transition active:scale-[0.98] disabled:cursor-not-allowed disabled:opacity-60";
const variants: Record<Variant, string> = {
  primary: "bg-brand-700 text-white shadow-sm hover:bg-brand-800",
  secondary: "border border-stone-300 bg-white text-stone-900 hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100",
  ghost: "text-brand-800 hover:bg-brand-50 dark:text-brand-200 dark:hover:bg-stone-800",
  danger: "bg-red-700 text-white hover:bg-red-800",
};

export function buttonClass(variant: Variant = "primary", full = false) {
  return `${base} ${variants[variant]} ${full ? "w-full" : ""}`;
}

export function Button({
  variant = "primary",
  full = false,
  isLoading = false,
  className = "",
  children,
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant; full?: boolean; isLoading?: boolean }) {
  return (
    <button type="button" className={`${buttonClass(variant, full)} ${className}`} disabled={isLoading || props.disabled} {...props}>
      {isLoading ? <span className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent" aria-hidden /> : null}
      {children}
    </button>
  );
}

export function ButtonLink({ variant = "primary", full = false, className = "", ...props }: LinkProps & { variant?: Variant; full?: boolean }) {
  return <Link className={`${buttonClass(variant, full)} ${className}`} {...props} />;
}
