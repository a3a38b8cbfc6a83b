import { useState } from "react";
import { Link } from "react-router";
import { formatAmount, plural } from "../../../../domain/format.ts";
import { cardProgress } from "../../../../domain/loyalty/ledger.ts";
import { type CardDesign, cardSettingsSchema } from "../../../../domain/schemas/shops.ts";
import { LoyaltyCard } from "../../../components/loyalty/loyalty-card.tsx";
import { Checkbox, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { bindDraft } from "../../../lib/bind-draft.ts";
import { useForm } from "../../../lib/use-form.ts";
import { type CardSettings, useCardSettings } from "../../../components/back-office/card-settings.ts";
import { useSaveCardSettings } from "../api/save-card-settings.ts";
import { type CorrectionDraft, CorrectionSettingsFields } from "../components/correction-settings-fields.tsx";
import { type EarnByDraft, EarnByFields } from "../components/earn-by-fields.tsx";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { contrastRatio } from "../components/colour.ts";
import { PosterSection } from "../components/poster-section.tsx";
import { CardColoursSection } from "../components/card-colours-section.tsx";
import { StampIconSection } from "../components/stamp-icon-section.tsx";
import { WalletPreviewSection } from "../components/wallet-preview.tsx";
import { ChoiceCards } from "../../../components/ui/choice-cards.tsx";
import { SaveBar } from "../../../components/ui/save-bar.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";

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

type Draft = CorrectionDraft &
  EarnByDraft & {
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
  earnBy: c.earnBy,
  pointsPerEuro: String(c.pointsPerEuro),
  amountRounding: c.amountRounding,
  receiptWindowMinutes: String(c.receiptWindowMinutes),
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
  const field = bindDraft(draft, update, e);
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

        <StampIconSection
          value={draft.design.stampIcon}
          onChange={(stampIcon) => setDesign({ stampIcon })}
          error={e["design.stampIcon"]}
        />

        <WalletPreviewSection
          shopName={settings.shop.name}
          design={draft.design}
          mode={draft.mode}
          stampsGoal={goal}
          balance={draft.mode === "stamps" ? visits : visits * perVisit}
        />

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
              <NumberField label="Tampons pour remplir la carte" min={3} max={50} {...field("stampsGoal")} />
            ) : (
              <>
                <EarnByFields draft={draft} update={update} errors={e} />
                <NumberField
                  label="Points par passage"
                  min={1}
                  max={1000}
                  {...field("pointsPerVisit")}
                  hint={draft.earnBy === "amount" ? "Pour une carte par passage." : undefined}
                />
              </>
            )}
            <SelectField
              label="Délai minimum entre deux passages d'un client"
              {...field("cooldownMinutes")}
              hint="Un second scan dans ce délai est refusé, avec l'heure du prochain passage possible."
              options={cooldowns}
            />
            <NumberField
              label="Passages crédités par jour et par client, au plus"
              min={1}
              max={20}
              {...field("dailyCap")}
            />
            <CorrectionSettingsFields
              draft={draft}
              update={update}
              errors={e}
              mode={draft.mode}
              visitWorth={
                draft.mode === "stamps" ? 1 : clampInt(draft.pointsPerVisit, 1, 1000, settings.pointsPerVisit)
              }
            />
            <SelectField
              label="Passages scannés sans réseau"
              {...field("offlineGraceMinutes")}
              hint="Le téléphone d'un client sans réseau garde le code scanné et l'envoie au retour du réseau : le passage compte s'il arrive dans ce délai, à l'heure où il a eu lieu."
              options={OFFLINE_GRACES}
            />
            <div className="rounded-xl border border-stone-200 p-3 dark:border-stone-700">
              <Checkbox
                label="Autoriser l'affiche imprimée (code fixe)"
                checked={draft.allowStaticPoster}
                onChange={(ev) => update({ allowStaticPoster: ev.target.checked })}
                hint="Pratique sans tablette au comptoir. Un code fixe peut être photographié : le délai et la limite par jour s'appliquent toujours, et vous pouvez le renouveler à tout moment."
              />
            </div>
          </div>
        </Section>

        {saved ? (
          <Notice tone="success">
            Carte enregistrée. <span className="block">{saved}.</span>
          </Notice>
        ) : null}
        <SaveBar isLoading={form.isSubmitting}>Enregistrer la carte</SaveBar>
      </div>
    </form>
  );
}

function CardDesignBody({ shopId }: { shopId: string }) {
  return (
    <QueryState query={useCardSettings(shopId)}>
      {(settings) => (
        <>
          <CardDesignForm key={shopId} shopId={shopId} settings={settings} />
          <PosterSection shopId={shopId} allowed={settings.allowStaticPoster} />
        </>
      )}
    </QueryState>
  );
}

/** /admin/creativcard: the card's design and rules, with a live preview, and the printable poster. */
export default function CardDesignPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Carte et règles"
      lead="Le design de votre carte de fidélité et la façon dont les passages sont crédités."
    >
      {(shop) => <CardDesignBody shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
