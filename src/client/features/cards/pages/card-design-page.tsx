import { useState } from "react";
import { Link } from "react-router";
import { formatAmount, plural } from "../../../../domain/format.ts";
import { cardProgress } from "../../../../domain/loyalty/ledger.ts";
import {
  type CardDesign,
  cardSettingsSchema,
  STAMP_ICONS,
  type StampIcon as StampIconName,
} from "../../../../domain/schemas/shops.ts";
import { LoyaltyCard } from "../../../components/loyalty/loyalty-card.tsx";
import { StampIcon } from "../../../components/loyalty/stamp-icon.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Checkbox, Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type CardSettings, useCardSettings } from "../../../components/back-office/card-settings.ts";
import { useSaveCardSettings } from "../api/save-card-settings.ts";
import { type CorrectionDraft, CorrectionSettingsFields } from "../components/correction-settings-fields.tsx";
import {
  BackofficeError,
  BackofficePage,
  PageSkeleton,
  Section,
} from "../../../components/back-office/back-office-page.tsx";
import { contrastRatio } from "../components/colour.ts";
import { PosterSection } from "../components/poster-section.tsx";
import { CardColoursSection } from "../components/card-colours-section.tsx";
import { ChoiceCards } from "../../../components/ui/choice-cards.tsx";

const STAMP_ICON_LABELS_FR: Record<StampIconName, string> = {
  star: "Étoile",
  heart: "Cœur",
  coffee: "Tasse",
  croissant: "Croissant",
  scissors: "Ciseaux",
  flower: "Fleur",
  check: "Coche",
  gift: "Cadeau",
};

const COOLDOWNS = [
  { value: 0, label: "Aucun délai" },
  { value: 30, label: "30 minutes" },
  { value: 60, label: "1 heure" },
  { value: 120, label: "2 heures" },
  { value: 240, label: "4 heures (conseillé)" },
  { value: 480, label: "8 heures" },
  { value: 720, label: "12 heures" },
  { value: 1440, label: "24 heures" },
  { value: 2880, label: "48 heures" },
  { value: 10080, label: "7 jours" },
];

/** How long a visit scanned without network may take to arrive (src/server/modules/cards/scan.service.ts). */
const OFFLINE_GRACES = [
  { value: 0, label: "Refusés (réseau obligatoire)" },
  { value: 15, label: "Acceptés s'ils arrivent dans les 15 minutes" },
  { value: 30, label: "Acceptés s'ils arrivent dans les 30 minutes (conseillé)" },
  { value: 60, label: "Acceptés s'ils arrivent dans l'heure" },
  { value: 120, label: "Acceptés s'ils arrivent dans les 2 heures" },
  { value: 240, label: "Acceptés s'ils arrivent dans les 4 heures" },
];

type Draft = CorrectionDraft & {
  mode: "stamps" | "points";
  stampsGoal: string;
  pointsPerVisit: string;
  cooldownMinutes: string;
  dailyCap: string;
  allowStaticPoster: boolean;
  offlineGraceMinutes: string;
  design: CardDesign;
};

const toDraft = (c: CardSettings): Draft => ({
  mode: c.mode,
  stampsGoal: String(c.stampsGoal),
  pointsPerVisit: String(c.pointsPerVisit),
  cooldownMinutes: String(c.cooldownMinutes),
  dailyCap: String(c.dailyCap),
  allowStaticPoster: c.allowStaticPoster,
  adjustmentLimit: c.adjustmentLimit === null ? "" : String(c.adjustmentLimit),
  staffAdjustmentsPerDay: String(c.staffAdjustmentsPerDay),
  staffAdjustmentsLifetime: c.staffAdjustmentsLifetime,
  offlineGraceMinutes: String(c.offlineGraceMinutes),
  design: { ...c.design },
});

const clampInt = (text: string, min: number, max: number, fallback: number) => {
  const n = Number.parseInt(text, 10);
  return Number.isFinite(n) ? Math.min(max, Math.max(min, n)) : fallback;
};

function CardDesignForm({ shopId, settings }: { shopId: string; settings: CardSettings }) {
  const save = useSaveCardSettings(shopId);
  const [draft, setDraft] = useState<Draft>(() => toDraft(settings));
  const [previewVisits, setPreviewVisits] = useState(3);
  const [saved, setSaved] = useState<string | null>(null);
  const form = useForm(
    cardSettingsSchema,
    async (values) => {
      setSaved(null);
      const card = await save(values);
      setDraft(toDraft(card));
      setSaved(card.summary);
    },
    () => draft,
  );
  const e = form.fieldErrors;
  const update = (patch: Partial<Draft>) => {
    setSaved(null);
    setDraft((d) => ({ ...d, ...patch }));
  };
  const setDesign = (patch: Partial<CardDesign>) => update({ design: { ...draft.design, ...patch } });

  const goal = clampInt(draft.stampsGoal, 3, 50, settings.stampsGoal);
  const perVisit = clampInt(draft.pointsPerVisit, 1, 1000, settings.pointsPerVisit);
  const visits = Math.min(previewVisits, draft.mode === "stamps" ? goal : 50);
  const contrast = contrastRatio(draft.design.foreground, draft.design.background);
  const cooldowns = COOLDOWNS.some((c) => String(c.value) === draft.cooldownMinutes)
    ? COOLDOWNS
    : [
        ...COOLDOWNS,
        { value: Number(draft.cooldownMinutes), label: plural(Number(draft.cooldownMinutes), "minute", "minutes") },
      ];

  return (
    <form
      onSubmit={form.handleSubmit}
      className="grid grid-cols-1 gap-5 md:grid-cols-[minmax(0,1fr)_20rem] md:items-start"
      noValidate
    >
      <div className="flex min-w-0 flex-col gap-3 md:sticky md:top-20 md:order-2">
        <p className="text-sm font-semibold text-stone-700 dark:text-stone-300" id="preview-title">
          Aperçu : la carte telle que vos clients la verront
        </p>
        {/* The very component of the shopper's cards (/cartes-de-fidelite, after a scan). */}
        <div data-testid="card-preview" aria-labelledby="preview-title" role="region">
          <LoyaltyCard
            shopName={settings.shop.name}
            subtitle={
              draft.mode === "stamps" ? "Carte de fidélité" : `+${formatAmount("points", perVisit)} par passage`
            }
            logoUrl={settings.shop.logoUrl}
            design={draft.design}
            progress={cardProgress(draft.mode, goal, draft.mode === "stamps" ? visits : visits * perVisit)}
          />
        </div>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {settings.shop.logoUrl
            ? "Le logo est celui de votre page. "
            : "Pas encore de logo : la carte affiche votre initiale. "}
          <Link to="/admin/ma-boutique" className="font-semibold text-brand-800 underline dark:text-brand-200">
            {settings.shop.logoUrl ? "Changer le logo" : "Ajouter un logo"}
          </Link>
        </p>
        <label className="flex flex-col gap-1 text-sm text-stone-700 dark:text-stone-300">
          Passages sur l'aperçu : {visits}
          <input
            type="range"
            min={0}
            max={draft.mode === "stamps" ? goal : 20}
            value={visits}
            onChange={(ev) => setPreviewVisits(Number(ev.target.value))}
            className="accent-brand-700"
          />
        </label>
        {contrast < 4.5 ? (
          <Notice tone="error">
            Le texte risque d'être difficile à lire sur ce fond : choisissez des couleurs plus contrastées.
          </Notice>
        ) : null}
      </div>

      <div className="flex min-w-0 flex-col gap-5 md:order-1">
        {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
        <CardColoursSection design={draft.design} setDesign={setDesign} errors={e} />

        <Section title="Icône du tampon">
          <fieldset>
            <legend className="sr-only">Icône du tampon</legend>
            <div className="grid grid-cols-4 gap-2">
              {STAMP_ICONS.map((icon) => (
                <label
                  key={icon}
                  className={`flex cursor-pointer flex-col items-center gap-1 rounded-xl border p-2 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 ${
                    draft.design.stampIcon === icon
                      ? "border-brand-700 bg-brand-50 text-brand-900 dark:bg-stone-800 dark:text-brand-100"
                      : "border-stone-200 text-stone-700 dark:border-stone-700 dark:text-stone-300"
                  }`}
                >
                  <input
                    type="radio"
                    name="stampIcon"
                    value={icon}
                    checked={draft.design.stampIcon === icon}
                    onChange={() => setDesign({ stampIcon: icon })}
                    className="sr-only"
                  />
                  <StampIcon name={icon} className="size-7" />
                  {STAMP_ICON_LABELS_FR[icon]}
                </label>
              ))}
            </div>
            {e["design.stampIcon"] ? (
              <p className="mt-2 text-sm font-medium text-red-700">{e["design.stampIcon"]}</p>
            ) : null}
          </fieldset>
        </Section>

        <Section
          title="Règles de la carte"
          lead="Les nouvelles règles comptent pour les prochains passages : ce que vos clients ont déjà gagné ne change jamais."
        >
          <div className="flex flex-col gap-4">
            <ChoiceCards
              legend="Type de carte"
              name="mode"
              narrow
              value={draft.mode}
              onChange={(mode) => update({ mode })}
              options={[
                {
                  value: "stamps",
                  title: "Tampons",
                  text: "Un tampon par passage ; la carte pleine donne la récompense.",
                },
                {
                  value: "points",
                  title: "Points",
                  text: "Des points à chaque passage, à échanger contre des récompenses.",
                },
              ]}
            />
            {draft.mode === "stamps" ? (
              <Field
                label="Tampons pour remplir la carte"
                type="number"
                inputMode="numeric"
                min={3}
                max={50}
                value={draft.stampsGoal}
                onChange={(ev) => update({ stampsGoal: ev.target.value })}
                error={e.stampsGoal}
              />
            ) : (
              <Field
                label="Points par passage"
                type="number"
                inputMode="numeric"
                min={1}
                max={1000}
                value={draft.pointsPerVisit}
                onChange={(ev) => update({ pointsPerVisit: ev.target.value })}
                error={e.pointsPerVisit}
              />
            )}
            <SelectField
              label="Délai minimum entre deux passages d'un client"
              value={draft.cooldownMinutes}
              onChange={(ev) => update({ cooldownMinutes: ev.target.value })}
              hint="Un second scan dans ce délai est refusé, avec l'heure du prochain passage possible."
              error={e.cooldownMinutes}
            >
              {cooldowns.map((c) => (
                <option key={c.value} value={String(c.value)}>
                  {c.label}
                </option>
              ))}
            </SelectField>
            <Field
              label="Passages crédités par jour et par client, au plus"
              type="number"
              inputMode="numeric"
              min={1}
              max={20}
              value={draft.dailyCap}
              onChange={(ev) => update({ dailyCap: ev.target.value })}
              error={e.dailyCap}
            />
            <CorrectionSettingsFields
              draft={draft}
              update={update}
              errors={e}
              mode={draft.mode}
              visitWorth={draft.mode === "stamps" ? 1 : clampInt(draft.pointsPerVisit, 1, 1000, settings.pointsPerVisit)}
            />
            <SelectField
              label="Passages scannés sans réseau"
              value={draft.offlineGraceMinutes}
              onChange={(ev) => update({ offlineGraceMinutes: ev.target.value })}
              hint="Le téléphone d'un client sans réseau garde le code scanné et l'envoie au retour du réseau : le passage compte s'il arrive dans ce délai, à l'heure où il a eu lieu."
              error={e.offlineGraceMinutes}
            >
              {OFFLINE_GRACES.map((g) => (
                <option key={g.value} value={String(g.value)}>
                  {g.label}
                </option>
              ))}
            </SelectField>
            <div className="rounded-xl border border-stone-200 p-3 dark:border-stone-700">
              <Checkbox
                label="Autoriser l'affiche imprimée (code fixe)"
                checked={draft.allowStaticPoster}
                onChange={(ev) => update({ allowStaticPoster: ev.target.checked })}
              />
              <p className="mt-1 pl-8 text-sm text-stone-600 dark:text-stone-400">
                Pratique sans tablette au comptoir. Un code fixe peut être photographié : le délai et la limite par jour
                s'appliquent toujours, et vous pouvez le renouveler à tout moment.
              </p>
            </div>
          </div>
        </Section>

        {saved ? (
          <Notice tone="success">
            Carte enregistrée. <span className="block">{saved}.</span>
          </Notice>
        ) : null}
        <div className="sticky bottom-0 -mx-4 border-t border-stone-200 bg-stone-50/95 px-4 py-3 backdrop-blur sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:p-0 dark:border-stone-800 dark:bg-stone-950/95">
          <Button type="submit" full isLoading={form.isSubmitting}>
            Enregistrer la carte
          </Button>
        </div>
      </div>
    </form>
  );
}

function CardDesignBody({ shopId }: { shopId: string }) {
  const settings = useCardSettings(shopId);
  if (settings.isPending) return <PageSkeleton />;
  if (settings.isError) return <BackofficeError error={settings.error} onRetry={() => settings.refetch()} />;
  return (
    <>
      <CardDesignForm key={shopId} shopId={shopId} settings={settings.data} />
      <PosterSection shopId={shopId} allowed={settings.data.allowStaticPoster} />
    </>
  );
}

/** /admin/creativcard: the card's design and rules, with a live preview, and the printable poster. */
export default function CardDesignPage() {
  return (
    <BackofficePage
      title="Carte et règles"
      lead="Le design de votre carte de fidélité et la façon dont les passages sont crédités."
    >
      {(shop) => <CardDesignBody shopId={shop.id} />}
    </BackofficePage>
  );
}
