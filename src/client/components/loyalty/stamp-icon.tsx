import type { StampIcon as StampIconName } from "../../../domain/schemas/shops.ts";

/** The stamp icons a shop can pick for its card (24 px grid, stroke); decorative. */
const STAMP_PATHS: Record<StampIconName, string> = {
  star: "M12 3.2l2.6 5.5 6 .8-4.4 4.2 1.1 6L12 16.8l-5.3 2.9 1.1-6-4.4-4.2 6-.8z",
  heart: "M12 20s-7.5-4.6-7.5-10.2A4.3 4.3 0 0 1 12 7.2a4.3 4.3 0 0 1 7.5 2.6C19.5 15.4 12 20 12 20z",
  coffee: "M4 9h12v5a5 5 0 0 1-5 5H9a5 5 0 0 1-5-5zM16 10.5h1.5a2.5 2.5 0 0 1 0 5H16M8 3v3M12 3v3",
  croissant: "M3 15.5C4.5 9.5 8 6 12 6s7.5 3.5 9 9.5c-1.8 1-3.6 1-5 0l-1.5-3.5L12 16l-2.5-4L8 15.5c-1.4 1-3.2 1-5 0z",
  scissors: "M6 9a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM6 21a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM8.2 7.8 20 19.5M8.2 16.2 20 4.5",
  flower:
    "M12 14.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5zM12 9.5a3 3 0 1 1 0-6 3 3 0 0 1 0 6zM12 20.5a3 3 0 1 1 0-6 3 3 0 0 1 0 6zM14.5 12a3 3 0 1 1 6 0 3 3 0 0 1-6 0zM3.5 12a3 3 0 1 1 6 0 3 3 0 0 1-6 0z",
  check: "M5 12.5l4.5 4.5L19 7.5",
  gift: "M3.5 8.5h17v4h-17zM5 12.5V21h14v-8.5M12 8.5V21M12 8.5C10 4.5 6.5 4.5 6.5 6.6S9.5 8.5 12 8.5zM12 8.5c2-4 5.5-4 5.5-1.9S14.5 8.5 12 8.5z",
};

export function StampIcon({ name, className = "size-5" }: { name: StampIconName; className?: string }) {
  return (
    <svg viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" className={className} aria-hidden="true">
      <path d={STAMP_PATHS[name] ?? STAMP_PATHS.star} />
    </svg>
  );
}
