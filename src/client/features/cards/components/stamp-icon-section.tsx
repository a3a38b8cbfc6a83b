import { STAMP_ICONS, type StampIcon as StampIconName } from "../../../../domain/schemas/shops.ts";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { Section } from "../../../components/ui/section.tsx";

const STAMP_ICON_LABELS_FR: Record<StampIconName, string> = {
  star: "Étoile",
  heart: "Cœur",
  coffee: "Tasse",
  croissant: "Croissant",
  scissors: "Ciseaux",
  flower: "Fleur",
  check: "Coche",
  gift: "Cadeau",
};

/** The icon a stamp shows on the card, one of a few drawn ones. */
export function StampIconSection({
  value,
  onChange,
  error,
}: {
  value: StampIconName;
  onChange: (icon: StampIconName) => void;
  error?: string;
}) {
  return (
    <Section title="Icône du tampon">
      <fieldset>
        <legend className="sr-only">Icône du tampon</legend>
        <div className="grid grid-cols-4 gap-2">
          {STAMP_ICONS.map((icon) => (
            <label
              key={icon}
              className={`flex cursor-pointer flex-col items-center gap-1 rounded-xl border p-2 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                value === icon
                  ? "border-brand-700 bg-brand-50 text-brand-900 dark:bg-stone-800 dark:text-brand-100"
                  : "border-stone-200 text-stone-700 dark:border-stone-700 dark:text-stone-300"
              }`}
            >
              <input
                type="radio"
                name="stampIcon"
                value={icon}
                checked={value === icon}
                onChange={() => onChange(icon)}
                className="sr-only"
              />
              <StampIcon name={icon} className="size-7" />
              {STAMP_ICON_LABELS_FR[icon]}
            </label>
          ))}
        </div>
        {error ? <p className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">{error}</p> : null}
      </fieldset>
    </Section>
  );
}
