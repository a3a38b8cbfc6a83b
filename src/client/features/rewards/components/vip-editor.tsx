import { useState } from "react";
import { VIP_MULTIPLIER_MAX, VIP_TIERS_MAX } from "../../../../domain/loyalty/rewards.ts";
import { vipTiersSchema } from "../../../../domain/schemas/rewards.ts";
import { Button } from "../../../components/ui/button.tsx";
import { Field, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import type { OwnerReward } from "../api/list-owner-rewards.ts";
import { useSaveVipTiers, type VipTier } from "../api/vip-tiers.ts";
import { Section } from "../../../components/ui/section.tsx";
import { type CardMode, unitWord } from "../../../../domain/format.ts";

/* VIP levels ------------------------------------------------------------------- */

type Row = { key: string; name: string; threshold: string; multiplier: string; rewardId: string };
const MULTIPLIERS = Array.from({ length: VIP_MULTIPLIER_MAX }, (_, i) => i + 1);
const SUGGESTED = ["Argent", "Or", "Platine", "Diamant", "Légende"];
let rowSeq = 0;
const newKey = () => `row-${++rowSeq}`;
const toRows = (tiers: VipTier[]): Row[] =>
  tiers.map((t) => ({
    key: newKey(),
    name: t.name,
    threshold: String(t.threshold),
    multiplier: String(t.multiplier),
    rewardId: t.rewardId ?? "",
  }));

export function VipEditor({
  shopId,
  tiers,
  rewards,
  mode,
}: {
  shopId: string;
  tiers: VipTier[];
  rewards: OwnerReward[];
  mode: CardMode;
}) {
  const save = useSaveVipTiers(shopId);
  const [rows, setRows] = useState<Row[]>(() => toRows(tiers));
  const [saved, setSaved] = useState(false);
  const form = useForm(
    vipTiersSchema,
    async (values) => {
      setSaved(false);
      setRows(toRows(await save(values)));
      setSaved(true);
    },
    () => ({ tiers: rows.map(({ key: _k, ...r }) => r) }),
  );
  // A row's field error is hidden once that field is edited again (until the next submit checks it).
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const e = Object.fromEntries(Object.entries(form.fieldErrors).filter(([key]) => !edited.has(key)));
  const update = (key: string, patch: Partial<Row>) => {
    const index = rows.findIndex((r) => r.key === key);
    setEdited((keys) => new Set([...keys, "tiers", ...Object.keys(patch).map((field) => `tiers.${index}.${field}`)]));
    setSaved(false);
    setRows((all) => all.map((r) => (r.key === key ? { ...r, ...patch } : r)));
  };
  const add = () => {
    setSaved(false);
    setRows((all) => {
      const last = Number(all.at(-1)?.threshold) || 0;
      const step = mode === "stamps" ? 20 : 200;
      return [
        ...all,
        {
          key: newKey(),
          name: SUGGESTED[all.length] ?? "",
          threshold: String(last + step),
          multiplier: "1",
          rewardId: "",
        },
      ];
    });
  };
  return (
    <Section
      title="Niveaux VIP"
      id="niveaux-vip"
      lead={`Jusqu'à ${VIP_TIERS_MAX} niveaux, atteints avec les ${unitWord(mode, 2)} gagnés depuis le premier passage : utiliser une récompense ne fait jamais perdre un niveau.`}
    >
      <form
        onSubmit={(event) => {
          setEdited(new Set());
          return form.handleSubmit(event);
        }}
        noValidate
        className="flex flex-col gap-4"
      >
        {form.formError && edited.size === 0 ? <Notice tone="error">{form.formError}</Notice> : null}
        {e.tiers && !form.formError ? <Notice tone="error">{e.tiers}</Notice> : null}
        {rows.length === 0 ? (
          <p className="rounded-xl border border-dashed border-stone-300 p-4 text-sm text-stone-700 dark:border-stone-700 dark:text-stone-300">
            Pas encore de niveaux. Exemple : Argent dès 50 {unitWord(mode, 2)}, Or dès 150 avec les {unitWord(mode, 2)}{" "}
            ×2.
          </p>
        ) : (
          <ol className="flex flex-col gap-3">
            {rows.map((row, i) => (
              <li key={row.key} className="rounded-2xl border border-stone-200 p-3 dark:border-stone-700">
                <fieldset className="flex flex-col gap-3">
                  <legend className="sr-only">Niveau {i + 1}</legend>
                  <div className="flex items-center justify-between gap-2">
                    <p className="text-sm font-semibold text-stone-700 dark:text-stone-300" aria-hidden="true">
                      Niveau {i + 1}
                    </p>
                    <button
                      type="button"
                      onClick={() => {
                        setSaved(false);
                        setRows((all) => all.filter((r) => r.key !== row.key));
                      }}
                      className="min-h-10 rounded-lg px-2 text-sm font-semibold text-red-700 underline dark:text-red-400"
                    >
                      Enlever<span className="sr-only"> le niveau {i + 1}</span>
                    </button>
                  </div>
                  <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
                    <Field
                      label="Nom"
                      value={row.name}
                      maxLength={30}
                      onChange={(ev) => update(row.key, { name: ev.target.value })}
                      error={e[`tiers.${i}.name`]}
                    />
                    <NumberField
                      label={`Seuil (${unitWord(mode, 2)})`}
                      min={1}
                      value={row.threshold}
                      onChange={(ev) => update(row.key, { threshold: ev.target.value })}
                      error={e[`tiers.${i}.threshold`]}
                    />
                  </div>
                  <div className="grid grid-cols-[7rem_minmax(0,1fr)] gap-3 [&>*]:min-w-0">
                    <SelectField
                      label="Bonus"
                      value={row.multiplier}
                      onChange={(ev) => update(row.key, { multiplier: ev.target.value })}
                      error={e[`tiers.${i}.multiplier`]}
                    >
                      {MULTIPLIERS.map((m) => (
                        <option key={m} value={String(m)}>
                          ×{m}
                        </option>
                      ))}
                    </SelectField>
                    <SelectField
                      label="Cadeau (facultatif)"
                      value={row.rewardId}
                      onChange={(ev) => update(row.key, { rewardId: ev.target.value })}
                      error={e[`tiers.${i}.rewardId`]}
                      options={rewards.map((r) => ({ value: r.id, label: r.title }))}
                    >
                      <option value="">Aucun cadeau</option>
                    </SelectField>
                  </div>
                </fieldset>
              </li>
            ))}
          </ol>
        )}
        <Button variant="secondary" onClick={add} disabled={rows.length >= VIP_TIERS_MAX}>
          {rows.length >= VIP_TIERS_MAX ? `${VIP_TIERS_MAX} niveaux au plus` : "+ Ajouter un niveau"}
        </Button>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          Le bonus multiplie les {unitWord(mode, 2)} de chaque passage (le meilleur des deux s'il y a aussi une
          opération de points doublés). Le cadeau est offert une fois, en atteignant le niveau ; une récompense en pause
          peut rester un cadeau.
        </p>
        {saved ? (
          <Notice tone="success">Niveaux VIP enregistrés : vos clients voient leur niveau tout de suite.</Notice>
        ) : null}
        <Button type="submit" isLoading={form.isSubmitting}>
          Enregistrer les niveaux
        </Button>
      </form>
    </Section>
  );
}
