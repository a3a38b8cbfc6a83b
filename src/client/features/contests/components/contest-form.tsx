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
import { OPEN_CONTEST_LOCK_REASON_FR } from "../../../../domain/contests/open-edit.ts";
import { ODDS_SCALE } from "../../../../domain/contests/wheel.ts";
import { formatNumber, plural } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { labelOptions, SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { errorFields, errorText } from "../../../lib/api-client.ts";
import { bindDraft } from "../../../lib/bind-draft.ts";
import { type OwnerContest, useSaveContest } from "../api/owner-contests.ts";
import { usePrizeLots } from "../api/prize-lots.ts";

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

/** The form's values as typed (dates in the browser's time zone, numbers as text). */
type Draft = {
  kind: ContestKind;
  title: string;
  description: string;
  startsAt: string;
  endsAt: string;
  eligibility: Eligibility;
  entriesPerPerson: string;
  spinPeriod: SpinPeriod;
};

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
  const save = useSaveContest(shopId);
  const now = Date.now();
  const [draft, setDraft] = useState<Draft>(() => ({
    kind: editing?.kind ?? "draw",
    title: editing?.title ?? "",
    description: editing?.description ?? "",
    startsAt: toLocalInput(editing?.startsAt ?? new Date(now).toISOString()),
    endsAt: toLocalInput(editing?.endsAt ?? new Date(now + 14 * 86_400_000).toISOString()),
    eligibility: editing?.eligibility ?? DEFAULT_ELIGIBILITY,
    entriesPerPerson: String(editing?.entriesPerPerson ?? 1),
    spinPeriod: editing?.spinPeriod ?? "day",
  }));
  const { kind } = draft;
  const [picks, setPicks] = useState<Record<string, Pick>>(() =>
    Object.fromEntries(
      (editing?.prizes ?? []).map((p) => [
        p.lotId,
        { selected: true, quantity: String(p.quantity), odds: String(p.oddsBp / 100).replace(".", ",") },
      ]),
    ),
  );
  const fields = errorFields(save.error);
  // Open: the published règlement binds the shop; the server refuses these fields too (src/domain/contests/open-edit.ts).
  const locked = editing?.phase === "open";
  const lock = { disabled: locked, hint: locked ? OPEN_CONTEST_LOCK_REASON_FR : undefined };
  const field = bindDraft(draft, (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch })), fields);

  const pick = (lotId: string): Pick => picks[lotId] ?? { selected: false, quantity: "1", odds: "10" };
  const setPick = (lotId: string, change: Partial<Pick>) =>
    setPicks((p) => ({ ...p, [lotId]: { ...pick(lotId), ...change } }));
  const chosen = (lots.data?.lots ?? []).filter((l) => pick(l.id).selected);
  const oddsBp = (v: string) => Math.round(Number(v.replace(",", ".")) * 100);
  const losing = ODDS_SCALE - chosen.reduce((s, l) => s + (oddsBp(pick(l.id).odds) || 0), 0);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = {
      ...draft,
      description: draft.description || null,
      startsAt: new Date(draft.startsAt).toISOString() as unknown as Date,
      endsAt: new Date(draft.endsAt).toISOString() as unknown as Date,
      entriesPerPerson: draft.entriesPerPerson as unknown as number,
      prizes:
        locked && editing
          ? editing.prizes.map((p) => ({ lotId: p.lotId, quantity: p.quantity, oddsBp: p.oddsBp }))
          : chosen.map((l) => ({
              lotId: l.id,
              quantity: pick(l.id).quantity as unknown as number,
              oddsBp: oddsBp(pick(l.id).odds),
            })),
    } as never;
    save.mutate({ id: editing?.id ?? null, input }, { onSuccess: onDone });
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {save.isError ? <Notice tone="error">{errorText(save.error)}</Notice> : null}
      {locked ? (
        <Notice>Ce jeu est en cours : seuls le titre, la description et une fin plus tardive peuvent changer.</Notice>
      ) : null}
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
                onChange={() => setDraft((d) => ({ ...d, kind: k }))}
                className="size-5 accent-brand-700"
              />
              {k === "draw" ? "Tirage au sort à la clôture" : "Roue de la chance (gain instantané)"}
            </label>
          ))}
        </fieldset>
      )}
      <Field label="Titre du jeu" {...field("title")} />
      <TextareaField label="Description (facultatif)" rows={2} {...field("description")} />
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="Début" type="datetime-local" {...field("startsAt")} {...lock} />
        <Field
          label="Fin"
          type="datetime-local"
          {...field("endsAt")}
          hint={locked ? "Un jeu en cours peut être prolongé, pas raccourci." : undefined}
        />
      </div>
      <SelectField
        label="Qui peut participer"
        {...field("eligibility")}
        {...lock}
        options={labelOptions(ELIGIBILITIES, ELIGIBILITY_LABELS_FR)}
      />
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Une personne, une participation : les comptes qui partagent un appareil, un réseau internet ou un numéro de
        mobile comptent pour une seule personne (article 3 du règlement). Un jeu ne demande jamais de points ni d'achat.
      </p>
      {kind === "draw" ? (
        <Field label="Participations par personne" inputMode="numeric" {...field("entriesPerPerson")} {...lock} />
      ) : (
        <SelectField
          label="Fréquence de jeu"
          {...field("spinPeriod")}
          {...lock}
          options={labelOptions(SPIN_PERIODS, SPIN_LABELS)}
        />
      )}
      {locked && editing ? (
        <LockedPrizes contest={editing} error={fields.prizes} />
      ) : (
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
          {fields.prizes ? <p className="text-sm text-red-700 dark:text-red-400">{fields.prizes}</p> : null}
        </fieldset>
      )}
      <Notice>Participation gratuite et sans obligation d'achat : aucun achat ni point ne peut être demandé.</Notice>
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isLoading={save.isPending}>
          {editing ? "Enregistrer" : "Créer le jeu"}
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Annuler
        </Button>
      </div>
    </form>
  );
}

/** An open contest's prizes, as published: shown, not editable, with the reason. */
function LockedPrizes({ contest, error }: { contest: OwnerContest; error?: string }) {
  return (
    <fieldset disabled className="flex flex-col gap-2" aria-describedby="locked-prizes-reason">
      <legend className="text-sm font-medium">{contest.kind === "draw" ? "Lots à gagner" : "Cases de la roue"}</legend>
      <ul className="flex flex-col gap-1 text-stone-700 dark:text-stone-300">
        {contest.prizes.map((p) => (
          <li key={p.lotId}>
            {p.name} —{" "}
            {contest.kind === "draw"
              ? plural(p.quantity, "gagnant", "gagnants")
              : `${formatNumber(p.oddsBp / 100)} % de chance`}
          </li>
        ))}
      </ul>
      <p id="locked-prizes-reason" className="text-sm text-stone-600 dark:text-stone-400">
        {OPEN_CONTEST_LOCK_REASON_FR}
      </p>
      {error ? <p className="text-sm text-red-700 dark:text-red-400">{error}</p> : null}
    </fieldset>
  );
}
