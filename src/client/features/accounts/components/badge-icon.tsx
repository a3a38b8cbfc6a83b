import { PathIcon } from "../../../components/icons.tsx";
/** A round illustration at the top of a state screen (mail sent, confirmed, link expired…). */
const paths = {
  mail: "M3 6.5A1.5 1.5 0 0 1 4.5 5h15A1.5 1.5 0 0 1 21 6.5v11a1.5 1.5 0 0 1-1.5 1.5h-15A1.5 1.5 0 0 1 3 17.5zM3.5 6.5l8.5 6.5 8.5-6.5",
  check: "M20 6 9 17l-5-5",
  alert: "M12 8v5M12 16.5v.5M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z",
  shield: "M12 3 4.5 6v5.5c0 4.6 3.2 8.4 7.5 9.5 4.3-1.1 7.5-4.9 7.5-9.5V6zM9 12l2 2 4-4",
  key: "M14.5 9.5a4 4 0 1 1-1.2-2.8M14.5 9.5 21 16v3h-3v-2h-2v-2h-2l-1.5-1.5",
  lock: "M6 10V8a6 6 0 0 1 12 0v2M5 10h14v11H5zM12 14.5v2.5",
  device:
    "M8 2.5h8A1.5 1.5 0 0 1 17.5 4v16a1.5 1.5 0 0 1-1.5 1.5H8A1.5 1.5 0 0 1 6.5 20V4A1.5 1.5 0 0 1 8 2.5zM11 18.5h2",
  user: "M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21a8 8 0 0 1 16 0",
  logout: "M9 21H5a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2h4M16 17l5-5-5-5M21 12H9",
  chevron: "M9 6l6 6-6 6",
} as const;

export type GlyphName = keyof typeof paths;

export function Glyph({ name, className = "size-6" }: { name: GlyphName; className?: string }) {
  return <PathIcon d={paths[name]} className={className} />;
}

const tones = {
  brand: "bg-brand-100 text-brand-800 dark:bg-brand-900 dark:text-brand-100",
  success: "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200",
  warning: "bg-amber-100 text-amber-800 dark:bg-amber-950 dark:text-amber-200",
} as const;

export function BadgeIcon({ name, tone = "brand" }: { name: GlyphName; tone?: keyof typeof tones }) {
  return (
    <div className={`flex size-16 items-center justify-center rounded-full ${tones[tone]}`}>
      <Glyph name={name} className="size-8" />
    </div>
  );
}
