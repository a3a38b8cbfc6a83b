import type { ReactNode } from "react";

type Tone = "error" | "success" | "info";
const tones: Record<Tone, string> = {
  error: "border-red-200 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950 dark:text-red-100",
  success: "border-emerald-200 bg-emerald-50 text-emerald-900 dark:border-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  info: "border-brand-200 bg-brand-50 text-brand-900 dark:border-brand-900 dark:bg-stone-900 dark:text-brand-100",
};

/** An inline message; errors are announced to screen readers at once. */
export function Notice({ tone = "info", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded-xl border px-4 py-3 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
