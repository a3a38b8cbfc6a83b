import { type FormEvent, useEffect, useState } from "react";
import { Link, useSearchParams } from "react-router";
import { HANDOVER_LABELS_FR, HANDOVER_MODES, type HandoverMode } from "../../../../domain/contests/contests.ts";
import { LOT_PHOTO_MAX_BYTES } from "../../../../domain/contests/schemas.ts";
import { formatKilobytes, formatNumber, plural } from "../../../../domain/format.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { ImageInput } from "../../../components/ui/image-input.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SavedStatus } from "../../../components/ui/saved-status.tsx";
import { labelOptions, SelectField } from "../../../components/ui/select-field.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { errorFields, errorText } from "../../../lib/api-client.ts";
import { bindDraft } from "../../../lib/bind-draft.ts";
import { type PrizeLot, useArchivePrizeLot, usePrizeLots, useSavePrizeLot } from "../api/prize-lots.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { tabsOf } from "../../../components/back-office/menu.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Section } from "../../../components/ui/section.tsx";

type Draft = {
  name: string;
  description: string;
  photo: string | null;
  value: string;
  quantity: string;
  handover: HandoverMode;
  points: string;
  claimDays: string;
};

const empty: Draft = {
  name: "",
  description: "",
  photo: null,
  value: "",
  quantity: "1",
  handover: "counter",
  points: "",
  claimDays: "15",
};

const fromLot = (l: PrizeLot): Draft => ({
  name: l.name,
  description: l.description ?? "",
  photo: l.photo,
  value: (l.valueCents / 100).toFixed(2).replace(".", ","),
  quantity: String(l.quantity),
  handover: l.handover,
  points: l.points ? String(l.points) : "",
  claimDays: String(l.claimDays),
});

function LotForm({
  shopId,
  editing,
  onDone,
  onSaved,
}: {
  shopId: string;
  editing: PrizeLot | null;
  onDone: () => void;
  onSaved: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(editing ? fromLot(editing) : empty);
  const save = useSavePrizeLot(shopId);
  const fields = errorFields(save.error);
  const field = bindDraft(draft, (patch) => setDraft((d) => ({ ...d, ...patch })), fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const euros = Number(draft.value.replace(",", ".").replace(/\s/g, ""));
    const input = {
      name: draft.name,
      description: draft.description || null,
      photo: draft.photo,
      valueCents: Number.isFinite(euros) ? Math.round(euros * 100) : Number.NaN,
      quantity: draft.quantity as unknown as number,
      handover: draft.handover,
      points: draft.handover === "points" ? (draft.points as unknown as number) : null,
      claimDays: draft.claimDays as unknown as number,
    };
    save.mutate(
      { lotId: editing?.id ?? null, input },
      {
        onSuccess: () => {
          setDraft(empty);
          onSaved();
          onDone();
        },
      },
    );
  };

  return (
    <form onSubmit={submit} className="flex flex-col gap-4" noValidate>
      {save.isError ? <Notice tone="error">{errorText(save.error)}</Notice> : null}
      <Field label="Nom du lot" {...field("name")} required />
      <TextareaField label="Description (facultatif)" {...field("description")} rows={2} />
      <ImageInput
        label="Photo (facultative)"
        hint={`Réduite ici à ${formatKilobytes(LOT_PHOTO_MAX_BYTES)} au plus.`}
        value={draft.photo}
        onChange={(photo) => setDraft((d) => ({ ...d, photo }))}
        maxBytes={LOT_PHOTO_MAX_BYTES}
        maxWidth={800}
        maxHeight={800}
        shape="photo"
        error={fields.photo}
      />
      <div className="grid grid-cols-2 gap-3">
        <Field
          label="Valeur commerciale (€)"
          inputMode="decimal"
          {...field("value")}
          error={fields.valueCents}
          hint="Indiquée dans le règlement."
        />
        <Field label="Quantité" inputMode="numeric" {...field("quantity")} />
      </div>
      <SelectField
        label="Remise du lot"
        {...field("handover")}
        options={labelOptions(HANDOVER_MODES, HANDOVER_LABELS_FR)}
      />
      {draft.handover === "points" ? <Field label="Points crédités" inputMode="numeric" {...field("points")} /> : null}
      <Field label="Délai pour retirer le lot (jours)" inputMode="numeric" {...field("claimDays")} />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" isLoading={save.isPending}>
          {editing ? "Enregistrer le lot" : "Ajouter le lot"}
        </Button>
        {editing ? (
          <Button variant="secondary" onClick={onDone}>
            Annuler
          </Button>
        ) : null}
      </div>
    </form>
  );
}

function Lots({ shopId }: { shopId: string }) {
  const lots = usePrizeLots(shopId);
  const archive = useArchivePrizeLot(shopId);
  const [editing, setEditing] = useState<PrizeLot | null>(null);
  const [savedAt, setSavedAt] = useState<number | null>(null);
  // « Modifier » on a lot's own page (/admin/lot-<id>) lands here with ?lot=<id>: that lot's form, once.
  const [params, setParams] = useSearchParams();
  const wanted = params.get("lot");
  useEffect(() => {
    const lot = wanted ? lots.data?.lots.find((l) => l.id === wanted) : undefined;
    if (!lot) return;
    setEditing(lot);
    setParams({}, { replace: true });
  }, [wanted, lots.data, setParams]);
  return (
    <>
      <Section title={editing ? `Modifier « ${editing.name} »` : "Nouveau lot"}>
        <LotForm
          key={editing?.id ?? "new"}
          shopId={shopId}
          editing={editing}
          onDone={() => setEditing(null)}
          onSaved={() => setSavedAt(Date.now())}
        />
      </Section>
      <Section title="Stock de lots">
        {archive.isError ? <Notice tone="error">{errorText(archive.error)}</Notice> : null}
        {lots.isPending ? (
          <p aria-busy="true">Chargement…</p>
        ) : lots.error ? (
          <LoadError error={lots.error} />
        ) : lots.data.lots.length === 0 ? (
          <p className="text-stone-700 dark:text-stone-300">Aucun lot pour l'instant : ajoutez le premier ci-dessus.</p>
        ) : (
          <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
            {lots.data.lots.map((l) => (
              <li key={l.id} className="flex flex-wrap items-center gap-3 py-3">
                {l.photo ? <img src={l.photo} alt="" className="size-12 rounded-lg object-cover" /> : null}
                <div className="min-w-0 flex-1">
                  <p className="font-semibold">
                    <Link to={`/admin/lot-${l.id}`} className="underline decoration-stone-300 underline-offset-4">
                      {l.name}
                    </Link>
                  </p>
                  <p className="text-sm text-stone-700 dark:text-stone-300">
                    {l.valueLabel} · {formatNumber(l.remaining)} sur {plural(l.quantity, "disponible", "disponibles")} ·{" "}
                    {l.handoverLabel}
                  </p>
                </div>
                <Button variant="secondary" onClick={() => setEditing(l)} aria-label={`Modifier ${l.name}`}>
                  Modifier
                </Button>
                <Button
                  variant="ghost"
                  aria-label={`Archiver ${l.name}`}
                  isLoading={archive.isPending && archive.variables === l.id}
                  onClick={() => archive.mutate(l.id)}
                >
                  Archiver
                </Button>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <SavedStatus savedAt={savedAt} />
    </>
  );
}

/** /admin/gestion-des-lots: the shop's stock of prizes for its contests. */
export default function PrizeLotsPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      tabs={tabsOf("Jeux")}
      title="Gestion des lots"
      lead="Les lots que vos jeux concours font gagner : valeur, quantité, remise et délai de retrait."
    >
      {(shop) => <Lots shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
