/** "Ouvert maintenant · ferme à 19 h 00" with a green dot, or "Fermé · …" in grey; nothing when no hours are set. */
export function OpenBadge({ open, size = "sm" }: { open: { isOpen: boolean; label: string; hasHours: boolean }; size?: "sm" | "md" }) {
  if (!open.hasHours) return null;
  return (
    <span className={`inline-flex items-center gap-1.5 font-medium ${size === "md" ? "text-sm" : "text-xs"} ${open.isOpen ? "text-emerald-800 dark:text-emerald-300" : "text-stone-600 dark:text-stone-400"}`}>
      <span className={`size-2 shrink-0 rounded-full ${open.isOpen ? "bg-emerald-600" : "bg-stone-400"}`} aria-hidden="true" />
      {open.label}
    </span>
  );
}
