import { type AmountRounding, amountRuleFr, type EarnBy } from "../../../../domain/loyalty/amount.ts";
import { formatMinutes } from "../../../../domain/format.ts";
import { bindDraft } from "../../../lib/bind-draft.ts";
import { NumberField } from "../../../components/ui/field.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";

/** How a points card earns (issue 29): its part of the card's form draft. */
export type EarnByDraft = {
  earnBy: EarnBy;
  pointsPerEuro: string;
  amountRounding: AmountRounding;
  receiptWindowMinutes: string;
};

const ROUNDINGS: { value: AmountRounding; label: string }[] = [
  { value: "down", label: "Au point inférieur (12,90 € → 12 points)" },
  { value: "nearest", label: "Au point le plus proche (12,50 € → 13 points)" },
  { value: "up", label: "Au point supérieur (12,10 € → 13 points)" },
];
const WINDOWS = [60, 1440, 2880, 10080, 43200];

/** « Par passage » or « Selon le montant » (per euro, rounding, how long a receipt code counts). */
export function EarnByFields({
  draft,
  update,
  errors,
}: {
  draft: EarnByDraft;
  update: (patch: Partial<EarnByDraft>) => void;
  errors: Record<string, string>;
}) {
  const field = bindDraft(draft, update, errors);
  const perEuro = Number.parseInt(draft.pointsPerEuro, 10);
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-stone-200 p-3 dark:border-stone-700">
      <SelectField label="Les points se gagnent" {...field("earnBy")}>
        <option value="visit">À chaque passage</option>
        <option value="amount">Selon le montant des achats</option>
      </SelectField>
      {draft.earnBy === "amount" ? (
        <>
          <NumberField label="Points par euro dépensé" min={1} max={100} {...field("pointsPerEuro")} />
          <SelectField label="Arrondi" {...field("amountRounding")} options={ROUNDINGS} />
          <SelectField
            label="Un code de ticket compte pendant"
            {...field("receiptWindowMinutes")}
            hint="Le montant est saisi au comptoir, envoyé par la caisse, ou lu sur le QR code du ticket (Caisse et API)."
            options={(WINDOWS.includes(Number(draft.receiptWindowMinutes))
              ? WINDOWS
              : [...WINDOWS, Number(draft.receiptWindowMinutes)]
            ).map((m) => ({ value: m, label: formatMinutes(m) }))}
          />
          {Number.isFinite(perEuro) && perEuro >= 1 ? (
            <p className="text-sm text-stone-700 dark:text-stone-300">
              Sur la carte : « {amountRuleFr(perEuro, draft.amountRounding)} ».
            </p>
          ) : null}
        </>
      ) : null}
    </div>
  );
}
