import type { CardDesign } from "../../../../domain/schemas/shops.ts";
import { Section } from "../../../components/ui/section.tsx";
import { ColourInput } from "./colour-input.tsx";

const PALETTES: { name: string; background: string; foreground: string; accent: string }[] = [
  { name: "Lagon", background: "#0f766e", foreground: "#ffffff", accent: "#f59e0b" },
  { name: "Nuit", background: "#1e293b", foreground: "#ffffff", accent: "#fbbf24" },
  { name: "Framboise", background: "#9f1239", foreground: "#ffffff", accent: "#fda4af" },
  { name: "Forêt", background: "#14532d", foreground: "#ffffff", accent: "#bef264" },
  { name: "Crème", background: "#fef3c7", foreground: "#422006", accent: "#b45309" },
  { name: "Lavande", background: "#5b21b6", foreground: "#ffffff", accent: "#f0abfc" },
  { name: "Café", background: "#44403c", foreground: "#fafaf9", accent: "#d6a35c" },
];

/** The card's colours: ready-made palettes, then each colour on its own. */
export function CardColoursSection({
  design,
  setDesign,
  errors: e,
}: {
  design: CardDesign;
  setDesign: (patch: Partial<CardDesign>) => void;
  errors: Record<string, string | undefined>;
}) {
  return (
    <Section title="Couleurs">
      <p className="mb-2 text-sm text-stone-600 dark:text-stone-400">Palettes prêtes à l'emploi :</p>
      <ul className="mb-4 flex flex-wrap gap-2">
        {PALETTES.map((p) => {
          const isCurrent =
            p.background === design.background && p.foreground === design.foreground && p.accent === design.accent;
          return (
            <li key={p.name}>
              <button
                type="button"
                onClick={() => setDesign({ background: p.background, foreground: p.foreground, accent: p.accent })}
                aria-pressed={isCurrent}
                className={`flex min-h-11 items-center gap-2 rounded-full border px-3 text-sm font-medium ${
                  isCurrent ? "border-brand-700 ring-2 ring-brand-600" : "border-stone-300 dark:border-stone-700"
                }`}
              >
                <span className="flex" aria-hidden="true">
                  <span
                    className="size-4 rounded-full ring-1 ring-black/10"
                    style={{ backgroundColor: p.background }}
                  />
                  <span
                    className="-ml-1 size-4 rounded-full ring-1 ring-black/10"
                    style={{ backgroundColor: p.accent }}
                  />
                </span>
                {p.name}
              </button>
            </li>
          );
        })}
      </ul>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <ColourInput
          label="Fond"
          value={design.background}
          onChange={(v) => setDesign({ background: v })}
          error={e["design.background"]}
        />
        <ColourInput
          label="Texte"
          value={design.foreground}
          onChange={(v) => setDesign({ foreground: v })}
          error={e["design.foreground"]}
        />
        <ColourInput
          label="Tampons"
          value={design.accent}
          onChange={(v) => setDesign({ accent: v })}
          error={e["design.accent"]}
        />
      </div>
    </Section>
  );
}
