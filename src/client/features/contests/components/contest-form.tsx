import { type FormEvent, useState } from "react";
import {
  type ContestKind,
  DEFAULT_ELIGIBILITY,
  ELIGIBILITIES,
  ELIGIBILITY_LABELS_FR,
  type Eligibility,
  SPIN_PERIODS,
  type SpinPeriod,
} from "../../../../domain/contests/contests.ts";
import { ODDS_SCALE } from "../../../../domain/contests/wheel.ts";
import { formatNumber } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { type OwnerContest, useOwnerContestActions } from "../api/owner-contests.ts";
import { usePrizeLots } from "../api/prize-lots.ts";
import { errorText } from "./contests-frame.tsx";

const SPIN_LABELS: Record<SpinPeriod, string> = {
  day: "Un tour par jour",
  week: "Un tour par semaine",
  contest: "Un seul tour pour tout le jeu",
};

/** "2026-12-01T09:00" in the browser's time zone, for <input type="datetime-local">. */
const toLocalInput = (iso: string) => {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

type Pick = { selected: boolean; quantity: string; odds: string };

export function ContestForm({
  shopId,
  editing,
  onDone,
}: {
  shopId: string;
  editing: OwnerContest | null;
  onDone: () => void;
}) {
  const lots = usePrizeLots(shopId);
  const { save } = useOwnerContestActions(shopId);
  const now = Date.now();
  const [kind, setKind] = useState<ContestKind>(editing?.kind ?? "draw");
  const [title, setTitle] = useState(editing?.title ?? "");
  const [description, setDescription] = useState(editing?.description ?? "");
  const [startsAt, setStartsAt] = useState(toLocalInput(editing?.startsAt ?? new Date(now).toISOString()));
  const [endsAt, setEndsAt] = useState(toLocalInput(editing?.endsAt ?? new Date(now + 14 * 86_400_000).toISOString()));
  const [eligibility, setEligibility] = useState<Eligibility>(editing?.eligibility ?? DEFAULT_ELIGIBILITY);
  const [entries, setEntries] = useState(String(editing?.entriesPerPerson ?? 1));
  const [spinPeriod, setSpinPeriod] = useState<SpinPeriod>(editing?.spinPeriod ?? "day");
  const [picks, setPicks] = useState<Record<string, Pick>>(() =>
    Object.fromEntries(
      (editing?.prizes ?? []).map((p) => [
        p.lotId,
        { selected: true, quantity: String(p.quantity), odds: String(p.oddsBp / 100).replace(".", ",") },
      ]),
    ),
  );
  const [fields, setFields] = useState<Record<string, string>>({});
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const pick = (lotId: string): Pick => picks[lotId] ?? { selected: false, quantity: "1", odds: "10" };
  const setPick = (lotId: string, change: Partial<Pick>) =>
    setPicks((p) => ({ ...p, [lotId]: { ...pick(lotId), ...change } }));
  const chosen = (lots.data?.lots ?? []).filter((l) => pick(l.id).selected);
  const oddsBp = (v: string) => Math.round(Number(v.replace(",", ".")) * 100);
  const losing = ODDS_SCALE - chosen.reduce((s, l) => s + (oddsBp(pick(l.id).odds) || 0), 0);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    setFields({});
    try {
      await save(editing?.id ?? null, {
        kind,
        title,
        description: description || null,
        startsAt: new Date(startsAt).toISOString() as unknown as Date,
        endsAt: new Date(endsAt).toISOString() as unknown as Date,
        eligibility,
        entriesPerPerson: entries as unknown as number,
        spinPeriod,
        prizes: chosen.map((l) => ({
          lotId: l.id,
          quantity: pick(l.id).quantity as unknown as number,
          oddsBp: oddsBp(pick(l.id).odds),
        })),
      } as never);
      onDone();
    } catch (e) {
      setError(errorText(e));
      if (e instanceof ApiError) setFields(e.fields);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
      {error ? <Notice tone="error">{error}</Notice> : null}
      {editing ? null : (
        <fieldset className="flex flex-col gap-2">
          <legend className="text-sm font-medium">Type de jeu</legend>
          {(["draw", "wheel"] as const).map((k) => (
            <label key={k} className="flex min-h-11 items-center gap-3">
              <input
                type="radio"
                name="kind"
                value={k}
                checked={kind === k}
                onChange={() => setKind(k)}
                className="size-5 accent-brand-700"
              />
              {k === "draw" ? "Tirage au sort à la clôture" : "Roue de la chance (gain instantané)"}
            </label>
          ))}
        </fieldset>
      )}
      <Field label="Titre du jeu" value={title} onChange={(e) => setTitle(e.target.value)} error={fields.title} />
      <TextareaField
        label="Description (facultatif)"
        value={description}
        onChange={(e) => setDescription(e.target.value)}
        rows={2}
        error={fields.description}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field
          label="Début"
          type="datetime-local"
          value={startsAt}
          onChange={(e) => setStartsAt(e.target.value)}
          error={fields.startsAt}
        />
        <Field
          label="Fin"
          type="datetime-local"
          value={endsAt}
          onChange={(e) => setEndsAt(e.target.value)}
          error={fields.endsAt}
        />
      </div>
      <SelectField
        label="Qui peut participer"
        value={eligibility}
        onChange={(e) => setEligibility(e.target.value as Eligibility)}
      >
        {ELIGIBILITIES.map((el) => (
          <option key={el} value={el}>
            {ELIGIBILITY_LABELS_FR[el]}
          </option>
        ))}
      </SelectField>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Une personne, une participation : les comptes qui partagent un appareil, un réseau internet ou un numéro de
        mobile comptent pour une seule personne (article 3 du règlement). Un jeu ne demande jamais de points ni d'achat.
      </p>
      {kind === "draw" ? (
        <Field
          label="Participations par personne"
          inputMode="numeric"
          value={entries}
          onChange={(e) => setEntries(e.target.value)}
          error={fields.entriesPerPerson}
        />
      ) : (
        <SelectField
          label="Fréquence de jeu"
          value={spinPeriod}
          onChange={(e) => setSpinPeriod(e.target.value as SpinPeriod)}
        >
          {SPIN_PERIODS.map((p) => (
            <option key={p} value={p}>
              {SPIN_LABELS[p]}
            </option>
          ))}
        </SelectField>
      )}
      <fieldset className="flex flex-col gap-3">
        <legend className="text-sm font-medium">{kind === "draw" ? "Lots à gagner" : "Cases de la roue"}</legend>
        {lots.data?.lots.length === 0 ? (
          <p className="text-sm">Ajoutez d'abord des lots dans « Stock de lots ».</p>
        ) : null}
        {(lots.data?.lots ?? []).map((l) => {
          const p = pick(l.id);
          return (
            <div
              key={l.id}
              className="flex flex-wrap items-end gap-3 rounded-xl border border-stone-200 p-3 dark:border-stone-800"
            >
              <label className="flex min-h-11 flex-1 items-center gap-3">
                <input
                  type="checkbox"
                  checked={p.selected}
                  onChange={(e) => setPick(l.id, { selected: e.target.checked })}
                  className="size-5 accent-brand-700"
                />
                <span>
                  {l.name}{" "}
                  <span className="text-sm text-stone-600 dark:text-stone-400">
                    ({formatNumber(l.remaining)} en stock)
                  </span>
                </span>
              </label>
              {p.selected ? (
                kind === "draw" ? (
                  <Field
                    label={`Gagnants de « ${l.name} »`}
                    inputMode="numeric"
                    value={p.quantity}
                    onChange={(e) => setPick(l.id, { quantity: e.target.value })}
                    className="w-40"
                  />
                ) : (
                  <Field
                    label={`Chance de « ${l.name} » (%)`}
                    inputMode="decimal"
                    value={p.odds}
                    onChange={(e) => setPick(l.id, { odds: e.target.value })}
                    className="w-40"
                  />
                )
              ) : null}
            </div>
          );
        })}
        {kind === "wheel" ? (
          <p className="text-sm text-stone-700 dark:text-stone-300" aria-live="polite">
            Case perdante : {formatNumber(Math.max(0, losing) / 100)} % des tours.
          </p>
        ) : null}
        {fields.prizes ? <p className="text-sm text-red-700">{fields.prizes}</p> : null}
      </fieldset>
      <Notice>Participation gratuite et sans obligation d'achat : aucun achat ni point ne peut être demandé.</Notice>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isLoading={busy}>
          {editing ? "Enregistrer" : "Créer le jeu"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Annuler
        </Button>
      </div>
    </form>
  );
}
