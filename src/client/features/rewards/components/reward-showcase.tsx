import type { ReactNode } from "react";
import { Glyph } from "../../../components/loyalty/glyph.tsx";
import { GiftIcon } from "./gift-icon.tsx";

/**
 * A reward as shoppers see it (/reward/{slug}): its photo (or a gift on the app's colours) with the cost on it,
 * the shop, the title, the description and the conditions. The owner's form shows the same card as its preview.
 */
export function RewardShowcase({
  title,
  description,
  photoUrl,
  costLabel,
  conditions,
  shop,
  headingLevel = 1,
  children,
}: {
  title: string;
  description: string | null;
  photoUrl: string | null;
  costLabel: string;
  conditions: string[];
  shop?: ReactNode;
  headingLevel?: 1 | 3;
  children?: ReactNode;
}) {
  const Heading = headingLevel === 1 ? "h1" : "h3";
  return (
    <article className="overflow-hidden rounded-3xl bg-white shadow-sm ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <div className="relative aspect-[16/10] w-full bg-gradient-to-br from-brand-700 via-brand-800 to-brand-900">
        {photoUrl ? (
          <img src={photoUrl} alt="" className="size-full object-cover" />
        ) : (
          <div className="flex size-full items-center justify-center text-white/90">
            <GiftIcon className="size-20" />
          </div>
        )}
        <span className="absolute bottom-3 left-3 rounded-full bg-white px-3 py-1 text-sm font-bold text-stone-900 shadow-md">
          {costLabel}
        </span>
      </div>
      <div className="flex flex-col gap-3 p-5">
        {shop}
        <Heading className="text-2xl font-bold leading-tight tracking-tight break-words">
          {title || "Nom de la récompense"}
        </Heading>
        {description ? <p className="whitespace-pre-line text-stone-800 dark:text-stone-200">{description}</p> : null}
        {conditions.length > 0 ? (
          <ul className="flex flex-col gap-1.5 text-sm text-stone-700 dark:text-stone-300" aria-label="Conditions">
            {conditions.map((c) => (
              <li key={c} className="flex gap-2">
                <Glyph name="check" className="mt-0.5 size-4 shrink-0 text-brand-700 dark:text-brand-200" />
                {c}
              </li>
            ))}
          </ul>
        ) : null}
        {children}
      </div>
    </article>
  );
}
