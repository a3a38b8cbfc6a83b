import { useState } from "react";
import { WEEKDAYS_FR } from "../../../../domain/loyalty/hours.ts";
import { doublePointsSchema } from "../../../../domain/schemas/shops.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Checkbox, Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { useDeleteDoublePoints } from "../api/delete-double-points.ts";
import { type DoublePointsPeriod, useDoublePoints } from "../api/list-double-points.ts";
import { useSaveDoublePoints } from "../api/save-double-points.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { type CardMode, formatPeriod, localIsoDate } from "../../../../domain/format.ts";
import { multipliedFr } from "../../../../domain/phrases.ts";
import { ConfirmBox } from "../../../components/ui/confirm-box.tsx";

const SHORT_DAYS = ["L", "M", "M", "J", "V", "S", "D"];

function statusOf(p: DoublePointsPeriod, today: string): { label: string; className: string } {
  if (!p.isActive)
    return { label: "En pause", className: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100" };
  if (p.endDate && p.endDate < today)
    return { label: "Terminée", className: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100" };
  if (p.startDate && p.startDate > today)
    return { label: "À venir", className: "bg-sky-100 text-sky-900 dark:bg-sky-950 dark:text-sky-100" };
  return { label: "Active", className: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100" };
}

/** [name, label, default value] of one end of a range. */
type RangeEnd = readonly [name: string, label: string, defaultValue: string];

/** Two dates or two times side by side: where the operation starts and where it ends. */
function RangeFields({
  type,
  from,
  to,
  errors,
}: {
  type: "date" | "time";
  from: RangeEnd;
  to: RangeEnd;
  errors: Partial<Record<string, string>>;
}) {
  return (
    <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
      {[from, to].map(([name, label, defaultValue]) => (
        <Field key={name} label={label} name={name} type={type} defaultValue={defaultValue} error={errors[name]} />
      ))}
    </div>
  );
}

function PeriodForm({
  shopId,
  period,
  onDone,
}: {
  shopId: string;
  period: DoublePointsPeriod | null;
  onDone: () => void;
}) {
  const save = useSaveDoublePoints(shopId);
  const form = useForm(
    doublePointsSchema,
    async (values) => {
      await save(period?.id ?? null, values);
      onDone();
    },
    (data) => ({
      label: String(data.get("label") ?? ""),
      startDate: String(data.get("startDate") ?? ""),
      endDate: String(data.get("endDate") ?? ""),
      weekdays: data.getAll("weekdays").map(Number),
      startTime: String(data.get("startTime") ?? ""),
      endTime: String(data.get("endTime") ?? ""),
      multiplier: String(data.get("multiplier") ?? ""),
      isActive: data.has("isActive"),
    }),
  );
  const e = form.fieldErrors;
  const title = period ? `Modifier « ${period.label} »` : "Nouvelle opération";
  return (
    <form
      onSubmit={form.handleSubmit}
      noValidate
      aria-label={title}
      className="flex flex-col gap-4 rounded-2xl border-2 border-brand-500 bg-white p-4 shadow-sm sm:p-5 dark:bg-stone-900"
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
      <div className="grid grid-cols-[minmax(0,1fr)_6rem] gap-3 [&>*]:min-w-0">
        <Field
          label="Nom de l'opération"
          name="label"
          defaultValue={period?.label ?? ""}
          placeholder="Happy hour du mardi"
          maxLength={60}
          error={e.label}
        />
        <SelectField
          label="Points"
          name="multiplier"
          defaultValue={String(period?.multiplier ?? 2)}
          error={e.multiplier}
        >
          {[2, 3, 4, 5].map((m) => (
            <option key={m} value={m}>
              ×{m}
            </option>
          ))}
        </SelectField>
      </div>
      <RangeFields
        type="date"
        errors={e}
        from={["startDate", "Début (facultatif)", period?.startDate ?? localIsoDate()]}
        to={["endDate", "Fin (facultatif)", period?.endDate ?? ""]}
      />
      <fieldset>
        <legend className="text-sm font-medium text-stone-800 dark:text-stone-200">
          Jours (aucun coché : tous les jours)
        </legend>
        <div className="mt-2 flex flex-wrap gap-2">
          {WEEKDAYS_FR.map((day, i) => (
            <label
              key={day}
              className="has-[:checked]:border-brand-700 has-[:checked]:bg-brand-700 has-[:checked]:text-white has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 flex size-11 cursor-pointer items-center justify-center rounded-full border border-stone-300 font-semibold text-stone-800 dark:border-stone-600 dark:text-stone-200"
            >
              <input
                type="checkbox"
                name="weekdays"
                value={i + 1}
                defaultChecked={period?.weekdays.includes(i + 1)}
                className="sr-only"
              />
              <span aria-hidden="true">{SHORT_DAYS[i]}</span>
              <span className="sr-only">{day}</span>
            </label>
          ))}
        </div>
        {e.weekdays ? <p className="mt-1 text-sm font-medium text-red-700 dark:text-red-400">{e.weekdays}</p> : null}
      </fieldset>
      <RangeFields
        type="time"
        errors={e}
        from={["startTime", "De (facultatif)", period?.startTime ?? ""]}
        to={["endTime", "À (facultatif)", period?.endTime ?? ""]}
      />
      <Checkbox name="isActive" label="Opération active" defaultChecked={period?.isActive ?? true} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" isLoading={form.isSubmitting} className="sm:flex-1">
          {period ? "Enregistrer" : "Créer l'opération"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Annuler
        </Button>
      </div>
    </form>
  );
}

function PeriodItem({
  shopId,
  mode,
  period,
  today,
  onEdit,
}: {
  shopId: string;
  mode: CardMode;
  period: DoublePointsPeriod;
  today: string;
  onEdit: () => void;
}) {
  const remove = useDeleteDoublePoints(shopId);
  const [confirming, setConfirming] = useState(false);
  const status = statusOf(period, today);
  return (
    <li className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <div className="flex items-start gap-3">
        <span
          className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-accent-400 text-lg font-black text-stone-900"
          aria-hidden="true"
        >
          ×{period.multiplier}
        </span>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold">{period.label}</h3>
            <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${status.className}`}>{status.label}</span>
          </div>
          <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">
            <span className="sr-only">{multipliedFr(mode, period.multiplier)}. </span>
            {formatPeriod(period)}
          </p>
        </div>
      </div>
      {confirming ? (
        <ConfirmBox
          className="mt-3"
          label={`Supprimer « ${period.label} »`}
          confirmLabel="Supprimer"
          // Still busy once deleted: the list is about to drop it.
          isLoading={remove.isPending || remove.isSuccess}
          onConfirm={() => remove.mutate(period.id)}
          onCancel={() => setConfirming(false)}
        >
          <p>Supprimer « {period.label} » ? Les passages déjà multipliés restent acquis.</p>
        </ConfirmBox>
      ) : (
        <div className="mt-3 flex gap-2">
          <Button variant="secondary" onClick={onEdit} className="!min-h-10 !px-4 text-sm">
            Modifier<span className="sr-only"> « {period.label} »</span>
          </Button>
          <Button
            variant="ghost"
            onClick={() => setConfirming(true)}
            className="!min-h-10 !px-4 text-sm !text-red-700 dark:!text-red-400"
          >
            Supprimer<span className="sr-only"> « {period.label} »</span>
          </Button>
        </div>
      )}
      {remove.isError ? (
        <div className="mt-2">
          <Notice tone="error">{errorText(remove.error, "La suppression a échoué.")}</Notice>
        </div>
      ) : null}
    </li>
  );
}

function DoublePointsBody({ shopId, mode }: { shopId: string; mode: CardMode }) {
  const periods = useDoublePoints(shopId);
  const [editing, setEditing] = useState<string | null>(null);
  if (periods.isPending) return <Skeleton />;
  if (periods.isError) return <LoadError error={periods.error} onRetry={() => periods.refetch()} />;
  const today = localIsoDate();
  return (
    <>
      {editing === "new" ? (
        <PeriodForm shopId={shopId} period={null} onDone={() => setEditing(null)} />
      ) : (
        <Button onClick={() => setEditing("new")} full>
          + Nouvelle opération
        </Button>
      )}
      {periods.data.length === 0 && editing !== "new" ? (
        <div className="rounded-2xl border border-dashed border-stone-300 p-6 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300">
          <p className="font-semibold">Aucune opération pour l'instant</p>
          <p className="mt-1 text-sm">
            Exemple : {multipliedFr(mode, 2).toLowerCase()} le mardi de 14 h à 17 h, pour remplir les heures creuses.
          </p>
        </div>
      ) : (
        <ul className="flex flex-col gap-3">
          {periods.data.map((p) =>
            editing === p.id ? (
              <li key={p.id}>
                <PeriodForm shopId={shopId} period={p} onDone={() => setEditing(null)} />
              </li>
            ) : (
              <PeriodItem
                key={p.id}
                shopId={shopId}
                mode={mode}
                period={p}
                today={today}
                onEdit={() => setEditing(p.id)}
              />
            ),
          )}
        </ul>
      )}
    </>
  );
}

/** /admin/points-double: periods when each visit earns more (dates, weekdays, hours, multiplier). */
export default function DoublePointsPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Points doublés"
      lead="Multipliez ce que rapporte un passage à certaines dates, certains jours ou certaines heures : idéal pour les heures creuses."
    >
      {(shop) => <DoublePointsBody shopId={shop.id} mode={shop.mode} />}
    </BackOfficeFrame>
  );
}
