import { type CardMode, formatAmount } from "../../../../domain/format.ts";
import { Checkbox, Field } from "../../../components/ui/field.tsx";

export type CorrectionDraft = {
  adjustmentLimit: string;
  staffAdjustmentsPerDay: string;
  staffAdjustmentsLifetime: boolean;
};

/**
 * The card settings' part on the team's corrections (ADR 0036): the largest one a team member makes alone (empty: a
 * visit's worth), how many a day, and whether they count toward VIP levels. Beyond, a correction waits for the
 * owner or a manager in the feed of /admin/liste-scans.
 */
export function CorrectionSettingsFields({
  draft,
  update,
  errors,
  mode,
  visitWorth,
}: {
  draft: CorrectionDraft;
  update: (patch: Partial<CorrectionDraft>) => void;
  errors: Record<string, string | undefined>;
  mode: CardMode;
  /** What one visit gives: the cap when no limit is set. */
  visitWorth: number;
}) {
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl border border-stone-200 p-3 dark:border-stone-700">
      <legend className="px-1 text-sm font-semibold">Corrections de solde par l'équipe</legend>
      <Field
        label="Correction la plus forte permise à un équipier"
        type="number"
        inputMode="numeric"
        min={1}
        max={10000}
        placeholder={String(visitWorth)}
        value={draft.adjustmentLimit}
        onChange={(ev) => update({ adjustmentLimit: ev.target.value })}
        hint={`Vide : un passage (${formatAmount(mode, visitWorth)}). Au-delà, la correction attend votre accord ou celui d'un gérant.`}
        error={errors.adjustmentLimit}
      />
      <Field
        label="Corrections par équipier et par jour, sans accord"
        type="number"
        inputMode="numeric"
        min={0}
        max={50}
        value={draft.staffAdjustmentsPerDay}
        onChange={(ev) => update({ staffAdjustmentsPerDay: ev.target.value })}
        hint="Les suivantes attendent votre accord. Chaque correction, avec son auteur et son motif, est listée dans Passages."
        error={errors.staffAdjustmentsPerDay}
      />
      <div>
        <Checkbox
          label="Les corrections des équipiers comptent pour les niveaux VIP"
          checked={draft.staffAdjustmentsLifetime}
          onChange={(ev) => update({ staffAdjustmentsLifetime: ev.target.checked })}
        />
        <p className="mt-1 pl-8 text-sm text-stone-600 dark:text-stone-400">
          Sinon elles changent le solde seulement : le cumul qui donne les niveaux VIP n'en tient pas compte.
        </p>
      </div>
    </fieldset>
  );
}
