/** A labelled progress bar (0–100), in the app's colours or on a coloured card. */
export function ProgressBar({
  percent,
  label,
  tone = "brand",
  size = "md",
}: {
  percent: number;
  /** What it measures, for screen readers ("Progression vers Café offert"). */
  label: string;
  tone?: "brand" | "success" | "accent";
  size?: "sm" | "md";
}) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  const fill =
    tone === "success" ? "bg-emerald-600" : tone === "accent" ? "bg-accent-500" : "bg-brand-700 dark:bg-brand-500";
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={value}
      className={`w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800 ${size === "sm" ? "h-1.5" : "h-2.5"}`}
    >
      <div className={`h-full rounded-full ${fill} transition-[width] duration-500`} style={{ width: `${value}%` }} />
    </div>
  );
}
