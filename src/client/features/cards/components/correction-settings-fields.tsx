import { type CardMode, formatAmount } from "../../../../domain/format.ts";
import { Checkbox, NumberField } from "../../../components/ui/field.tsx";
import { bindDraft } from "../../../lib/bind-draft.ts";

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
  const field = bindDraft(draft, update, errors);
  return (
    <fieldset className="flex flex-col gap-4 rounded-xl border border-stone-200 p-3 dark:border-stone-700">
      <legend className="px-1 text-sm font-semibold">Corrections de solde par l'équipe</legend>
      <NumberField
        label="Correction la plus forte permise à un membre de l'équipe"
        min={1}
        max={10000}
        placeholder={String(visitWorth)}
        {...field("adjustmentLimit")}
        hint={`Vide : un passage (${formatAmount(mode, visitWorth)}). Au-delà, la correction attend votre accord ou celui d'une personne responsable.`}
      />
      <NumberField
        label="Corrections par membre de l'équipe et par jour, sans accord"
        min={0}
        max={50}
        {...field("staffAdjustmentsPerDay")}
        hint="Les suivantes attendent votre accord. Chaque correction, avec son auteur et son motif, est listée dans Passages."
      />
      <Checkbox
        label="Les corrections de l'équipe comptent pour les niveaux VIP"
        checked={draft.staffAdjustmentsLifetime}
        onChange={(ev) => update({ staffAdjustmentsLifetime: ev.target.checked })}
        hint="Sinon elles changent le solde seulement : le cumul qui donne les niveaux VIP n'en tient pas compte."
      />
    </fieldset>
  );
}
