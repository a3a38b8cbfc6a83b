import { useState } from "react";
import { type Closure, dayHoursLabelFr, type TimeRange, WEEKDAYS_FR } from "../../../../domain/loyalty/hours.ts";
import { shopHoursSchema } from "../../../../domain/schemas/shops.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { useHours } from "../api/get-hours.ts";
import { useSaveHours } from "../api/save-hours.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { capitalize, formatLocalDate, localIsoDate } from "../../../../domain/format.ts";
import { PathIcon } from "../../../components/icons.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { SaveBar } from "../../../components/ui/save-bar.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";

const MAX_RANGES = 4;
const TIME = /^\d{2}:\d{2}$/;

type Hours = NonNullable<ReturnType<typeof useHours>["data"]>;

/** The later of two YYYY-MM-DD dates (text order is date order). */
function laterDate(a: string, b: string): string {
  if (a > b) return a;
  return b;
}

function firstError(errors: Record<string, string>, prefix: string): string | undefined {
  const key = Object.keys(errors).find((k) => k === prefix || k.startsWith(`${prefix}.`));
  return key ? errors[key] : undefined;
}

function RangeRow({
  day,
  index,
  range,
  onChange,
  onRemove,
}: {
  day: string;
  index: number;
  range: TimeRange;
  onChange: (range: TimeRange) => void;
  onRemove: () => void;
}) {
  const name = `${day}, plage ${index + 1}`;
  // The time fields shrink (min-w-0): at their natural width they pushed the delete button off a 320 px screen.
  return (
    <li className="flex items-end gap-2">
      <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-stone-600 dark:text-stone-400">
        Ouverture
        <input
          type="time"
          value={range.open}
          onChange={(e) => onChange({ ...range, open: e.target.value })}
          aria-label={`${name} : ouverture`}
          className="min-h-11 w-full min-w-0 rounded-lg border border-stone-300 bg-white px-2 text-base text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
      </label>
      <span className="pb-3 text-stone-500" aria-hidden="true">
        –
      </span>
      <label className="flex min-w-0 flex-1 flex-col gap-1 text-xs font-medium text-stone-600 dark:text-stone-400">
        Fermeture
        <input
          type="time"
          value={range.close}
          onChange={(e) => onChange({ ...range, close: e.target.value })}
          aria-label={`${name} : fermeture`}
          className="min-h-11 w-full min-w-0 rounded-lg border border-stone-300 bg-white px-2 text-base text-stone-900 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
        />
      </label>
      <button
        type="button"
        onClick={onRemove}
        className="flex size-11 shrink-0 items-center justify-center rounded-lg text-stone-600 hover:bg-red-50 hover:text-red-700 dark:text-stone-400"
        aria-label={`Supprimer ${name}`}
      >
        <PathIcon d="M6 6l12 12M18 6 6 18" className="size-5" />
      </button>
    </li>
  );
}

function HoursForm({ shopId, hours }: { shopId: string; hours: Hours }) {
  const save = useSaveHours(shopId);
  const [weekly, setWeekly] = useState<TimeRange[][]>(() => hours.weekly.map((d) => d.map((r) => ({ ...r }))));
  const [closures, setClosures] = useState<Closure[]>(() => hours.closures.map((c) => ({ ...c })));
  const [saved, setSaved] = useState(false);
  const form = useForm(
    shopHoursSchema,
    async (values) => {
      await save(values);
      setSaved(true);
    },
    () => ({ weekly, closures }),
  );
  const e = form.fieldErrors;

  const setDay = (d: number, ranges: TimeRange[]) => {
    setSaved(false);
    setWeekly((w) => w.map((day, i) => (i === d ? ranges : day)));
  };
  const setClosure = (i: number, c: Closure | null) => {
    setSaved(false);
    setClosures((list) => (c ? list.map((x, j) => (j === i ? c : x)) : list.filter((_, j) => j !== i)));
  };

  return (
    <Form form={form} className="flex flex-col gap-5">
      <Section
        title="Semaine type"
        lead="Ajoutez plusieurs plages pour une pause (ex. 9 h – 12 h 30 puis 14 h – 19 h). Une plage peut finir après minuit."
      >
        <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
          {WEEKDAYS_FR.map((dayName, d) => {
            const ranges = weekly[d] ?? [];
            const day = capitalize(dayName);
            const error = firstError(e, `weekly.${d}`);
            return (
              <li key={dayName} className="py-3 first:pt-0 last:pb-0">
                <div className="flex items-center justify-between gap-2">
                  <h3 className="font-semibold">{day}</h3>
                  <span
                    className={`text-sm ${ranges.length ? "text-stone-700 dark:text-stone-300" : "font-medium text-stone-600 dark:text-stone-400"}`}
                  >
                    {ranges.length === 0
                      ? "Fermé"
                      : ranges.every((r) => TIME.test(r.open) && TIME.test(r.close))
                        ? dayHoursLabelFr(ranges)
                        : ""}
                  </span>
                </div>
                {ranges.length ? (
                  <ul className="mt-2 flex flex-col gap-2">
                    {ranges.map((range, r) => (
                      <RangeRow
                        // biome-ignore lint/suspicious/noArrayIndexKey: ranges are edited in place by position
                        key={r}
                        day={day}
                        index={r}
                        range={range}
                        onChange={(next) =>
                          setDay(
                            d,
                            ranges.map((x, j) => (j === r ? next : x)),
                          )
                        }
                        onRemove={() =>
                          setDay(
                            d,
                            ranges.filter((_, j) => j !== r),
                          )
                        }
                      />
                    ))}
                  </ul>
                ) : null}
                {error ? <p className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">{error}</p> : null}
                <div className="mt-2 flex flex-wrap gap-x-4 gap-y-1">
                  {ranges.length < MAX_RANGES ? (
                    <button
                      type="button"
                      className="min-h-10 text-sm font-semibold text-brand-800 dark:text-brand-200"
                      onClick={() => {
                        const last = ranges.at(-1);
                        setDay(d, [
                          ...ranges,
                          last
                            ? { open: last.close < "23:00" ? last.close : "14:00", close: "19:00" }
                            : { open: "09:00", close: "19:00" },
                        ]);
                      }}
                    >
                      + {ranges.length ? "Ajouter une plage" : "Ouvrir ce jour"}
                      <span className="sr-only"> ({day})</span>
                    </button>
                  ) : null}
                  {d > 0 ? (
                    <button
                      type="button"
                      className="min-h-10 text-sm font-semibold text-stone-700 dark:text-stone-300"
                      onClick={() =>
                        setDay(
                          d,
                          (weekly[d - 1] ?? []).map((r) => ({ ...r })),
                        )
                      }
                    >
                      Comme {WEEKDAYS_FR[d - 1]}
                      <span className="sr-only"> (pour {dayName})</span>
                    </button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      </Section>
      <Section
        title="Fermetures exceptionnelles"
        lead="Congés, jours fériés, travaux : ces jours-là, votre page affiche « Fermé » et aucun passage n'est attendu."
      >
        {closures.length ? (
          <ul className="flex flex-col gap-4">
            {closures.map((c, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: closures are edited in place by position
              <li key={i} className="rounded-xl border border-stone-200 p-3 dark:border-stone-800">
                <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 [&>*]:min-w-0">
                  <Field
                    label="Du"
                    type="date"
                    value={c.startDate}
                    onChange={(ev) =>
                      setClosure(i, {
                        ...c,
                        startDate: ev.target.value,
                        endDate: laterDate(c.endDate, ev.target.value),
                      })
                    }
                    error={e[`closures.${i}.startDate`]}
                  />
                  <Field
                    label="Au"
                    type="date"
                    value={c.endDate}
                    min={c.startDate}
                    onChange={(ev) => setClosure(i, { ...c, endDate: ev.target.value })}
                    error={e[`closures.${i}.endDate`]}
                  />
                  <Field
                    label="Motif (facultatif)"
                    value={c.reason}
                    maxLength={80}
                    placeholder="Congés d'été"
                    onChange={(ev) => setClosure(i, { ...c, reason: ev.target.value })}
                    error={e[`closures.${i}.reason`]}
                    className="sm:col-span-2"
                  />
                </div>
                <div className="mt-2 flex items-center justify-between gap-2">
                  <span className="text-sm text-stone-600 dark:text-stone-400">
                    {c.startDate && c.endDate && c.startDate <= c.endDate
                      ? c.startDate === c.endDate
                        ? `Le ${formatLocalDate(c.startDate)}`
                        : `Du ${formatLocalDate(c.startDate)} au ${formatLocalDate(c.endDate)}`
                      : ""}
                  </span>
                  <button
                    type="button"
                    onClick={() => setClosure(i, null)}
                    className="min-h-10 text-sm font-semibold text-red-700 underline dark:text-red-400"
                  >
                    Supprimer<span className="sr-only"> la fermeture {i + 1}</span>
                  </button>
                </div>
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-stone-600 dark:text-stone-400">Aucune fermeture prévue.</p>
        )}
        <Button
          variant="secondary"
          className="mt-4"
          onClick={() => {
            const today = localIsoDate();
            setSaved(false);
            setClosures((list) => [...list, { startDate: today, endDate: today, reason: "" }]);
          }}
        >
          + Ajouter une fermeture
        </Button>
        {e.closures ? <p className="mt-2 text-sm font-medium text-red-700 dark:text-red-400">{e.closures}</p> : null}
      </Section>
      {saved ? <Notice tone="success">Vos horaires sont enregistrés.</Notice> : null}
      <SaveBar isLoading={form.isSubmitting}>Enregistrer les horaires</SaveBar>
    </Form>
  );
}

function HoursBody({ shopId }: { shopId: string }) {
  return (
    <QueryState query={useHours(shopId)}>
      {(hours) => <HoursForm key={shopId} shopId={shopId} hours={hours} />}
    </QueryState>
  );
}

/** /admin/horaires: the weekly hours (with breaks) and the exceptional closures. */
export default function HoursPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Horaires"
      lead="Vos clients voient si vous êtes ouvert ; un passage loin de vos horaires vous est signalé."
    >
      {(shop) => <HoursBody shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
