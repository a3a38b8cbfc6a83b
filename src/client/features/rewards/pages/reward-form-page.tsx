import { type FormEvent, useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { unitLabelFr } from "../../../../domain/loyalty/rewards.ts";
import { REWARD_PHOTO_MAX_BYTES, rewardInputSchema } from "../../../../domain/schemas/rewards.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Checkbox, Field, NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { TextareaField } from "../../../components/ui/textarea-field.tsx";
import { useForm } from "../../../lib/use-form.ts";
import { type OwnerRewardDetail, useOwnerReward } from "../api/get-owner-reward.ts";
import { useOwnerRewards } from "../api/list-owner-rewards.ts";
import { useSaveReward } from "../api/save-reward.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { rewardConditionsFr } from "../../../../domain/loyalty/reward-conditions.ts";
import { ChoiceCards } from "../../../components/ui/choice-cards.tsx";
import { ImageInput } from "../../../components/ui/image-input.tsx";
import { formatKilobytes } from "../../../../domain/format.ts";
import { ProgressBar } from "../components/progress-bar.tsx";
import { RewardShowcase } from "../components/reward-showcase.tsx";
import { SaveBar } from "../../../components/ui/save-bar.tsx";

type Mode = "stamps" | "points";

type Draft = {
  title: string;
  description: string;
  photo: string | null;
  cost: string;
  stock: string;
  perCustomerLimit: string;
  validFrom: string;
  validUntil: string;
  kind: "repeatable" | "ladder";
  isActive: boolean;
};

const EMPTY: Draft = {
  title: "",
  description: "",
  photo: null,
  cost: "10",
  stock: "",
  perCustomerLimit: "",
  validFrom: "",
  validUntil: "",
  kind: "repeatable",
  isActive: true,
};

const toDraft = (r: OwnerRewardDetail): Draft => ({
  title: r.title,
  description: r.description ?? "",
  photo: r.photo,
  cost: String(r.cost),
  stock: r.stock === null ? "" : String(r.stock),
  perCustomerLimit: r.perCustomerLimit === null ? "" : String(r.perCustomerLimit),
  validFrom: r.validFrom ?? "",
  validUntil: r.validUntil ?? "",
  kind: r.kind,
  isActive: r.isActive,
});

const intOrNull = (s: string) => {
  const n = Number.parseInt(s, 10);
  return Number.isFinite(n) ? n : null;
};

function Preview({ draft, mode, shopName }: { draft: Draft; mode: Mode; shopName: string }) {
  const cost = Math.max(1, intOrNull(draft.cost) ?? 1);
  const conditions = rewardConditionsFr(
    {
      cost,
      stock: intOrNull(draft.stock),
      perCustomerLimit: intOrNull(draft.perCustomerLimit),
      kind: draft.kind,
      validFrom: draft.validFrom || null,
      validUntil: draft.validUntil || null,
    },
    mode,
  );
  // A customer two thirds of the way there, to show the progress bar as shoppers see it.
  const example = Math.floor((cost * 2) / 3);
  return (
    <div className="flex flex-col gap-2">
      <p className="text-sm font-semibold text-stone-700 dark:text-stone-300" id="reward-preview-title">
        Aperçu : la récompense telle que vos clients la verront
      </p>
      <div
        role="region"
        aria-labelledby="reward-preview-title"
        data-testid="reward-preview"
        className={draft.isActive ? "" : "opacity-70"}
      >
        <RewardShowcase
          title={draft.title.trim()}
          description={draft.description.trim() || null}
          photoUrl={draft.photo}
          costLabel={unitLabelFr(mode, cost)}
          conditions={conditions}
          headingLevel={3}
          shop={<p className="font-semibold text-brand-800 dark:text-brand-200">{shopName}</p>}
        >
          <div className="rounded-2xl bg-stone-50 p-4 dark:bg-stone-950">
            <ProgressBar percent={(example / cost) * 100} label="Exemple de progression d'un client" />
            <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
              Exemple : un client à {unitLabelFr(mode, example)} lit « Encore {unitLabelFr(mode, cost - example)} ».
            </p>
          </div>
          <span
            className="inline-flex min-h-12 items-center justify-center rounded-xl bg-brand-700 px-5 font-semibold text-white"
            aria-hidden="true"
          >
            Utiliser
          </span>
        </RewardShowcase>
      </div>
      {!draft.isActive ? (
        <p className="text-sm text-stone-700 dark:text-stone-300">
          En pause : vos clients ne la verront pas tant qu'elle n'est pas proposée.
        </p>
      ) : null}
    </div>
  );
}

function RewardForm({
  shopId,
  shopName,
  mode,
  reward,
}: {
  shopId: string;
  shopName: string;
  mode: Mode;
  reward: OwnerRewardDetail | null;
}) {
  const save = useSaveReward(shopId);
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(() => (reward ? toDraft(reward) : EMPTY));
  const form = useForm(
    rewardInputSchema,
    async (values) => {
      const saved = await save(reward?.id ?? null, values);
      navigate("/admin/recompenses", { state: { saved: saved.title } });
    },
    () => ({ ...draft, perCustomerLimit: draft.kind === "ladder" ? "" : draft.perCustomerLimit }),
  );
  // A field's error is hidden once the field is edited again (until the next submit checks it).
  const [edited, setEdited] = useState<ReadonlySet<string>>(new Set());
  const e = Object.fromEntries(Object.entries(form.fieldErrors).filter(([key]) => !edited.has(key)));
  const update = (patch: Partial<Draft>) => {
    setEdited((keys) => new Set([...keys, ...Object.keys(patch)]));
    setDraft((d) => ({ ...d, ...patch }));
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    setEdited(new Set());
    return form.handleSubmit(event);
  };
  const unit = mode === "stamps" ? "tampons" : "points";

  return (
    <form
      onSubmit={submit}
      noValidate
      className="grid grid-cols-1 gap-5 md:grid-cols-[minmax(0,1fr)_20rem] md:items-start"
    >
      <div className="flex min-w-0 flex-col gap-5">
        {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
        <Section title="La récompense">
          <div className="flex flex-col gap-4">
            <Field
              label="Nom"
              value={draft.title}
              onChange={(ev) => update({ title: ev.target.value })}
              maxLength={80}
              placeholder="Un café offert"
              error={e.title}
            />
            <TextareaField
              label="Description (facultative)"
              value={draft.description}
              onChange={(ev) => update({ description: ev.target.value })}
              maxLength={1000}
              placeholder="Expresso, allongé ou noisette, au comptoir ou à emporter."
              error={e.description}
            />
            <ImageInput
              label="Photo (facultative)"
              hint={`Réduite ici à ${formatKilobytes(REWARD_PHOTO_MAX_BYTES)} au plus.`}
              value={draft.photo}
              onChange={(photo) => update({ photo })}
              maxBytes={REWARD_PHOTO_MAX_BYTES}
              maxWidth={1200}
              maxHeight={1200}
              shape="photo"
              error={e.photo}
            />
          </div>
        </Section>
        <Section title="Conditions">
          <div className="flex flex-col gap-4">
            <NumberField
              label={`Coût (${unit})`}
              min={1}
              value={draft.cost}
              onChange={(ev) => update({ cost: ev.target.value })}
              error={e.cost}
            />
            <ChoiceCards
              legend="Type"
              name="kind"
              value={draft.kind}
              onChange={(kind) => update({ kind })}
              error={e.kind}
              options={[
                {
                  value: "repeatable",
                  title: "Répétable",
                  text: "Le client peut l'utiliser à chaque fois que son solde le permet.",
                },
                {
                  value: "ladder",
                  title: "Palier (une seule fois)",
                  text: "Une seule fois par client, comme un cadeau de palier.",
                },
              ]}
            />
            <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
              <NumberField
                label="Stock (facultatif)"
                min={0}
                value={draft.stock}
                onChange={(ev) => update({ stock: ev.target.value })}
                hint="Vide : illimité."
                error={e.stock}
              />
              <NumberField
                label="Par client, au plus"
                min={1}
                max={100}
                value={draft.kind === "ladder" ? "1" : draft.perCustomerLimit}
                disabled={draft.kind === "ladder"}
                onChange={(ev) => update({ perCustomerLimit: ev.target.value })}
                hint={draft.kind === "ladder" ? "Une fois (palier)." : "Vide : sans limite."}
                error={e.perCustomerLimit}
              />
            </div>
            <div className="grid grid-cols-2 gap-3 [&>*]:min-w-0">
              <Field
                label="Valable à partir du"
                type="date"
                value={draft.validFrom}
                onChange={(ev) => update({ validFrom: ev.target.value })}
                error={e.validFrom}
              />
              <Field
                label="Jusqu'au (inclus)"
                type="date"
                value={draft.validUntil}
                onChange={(ev) => update({ validUntil: ev.target.value })}
                error={e.validUntil}
              />
            </div>
            <Checkbox
              label="Proposée aux clients dès maintenant"
              checked={draft.isActive}
              onChange={(ev) => update({ isActive: ev.target.checked })}
            />
          </div>
        </Section>
      </div>
      <div className="flex min-w-0 flex-col gap-4 md:sticky md:top-20">
        <Preview draft={draft} mode={mode} shopName={shopName} />
        <SaveBar isLoading={form.isSubmitting} from="md">
          {reward ? "Enregistrer les modifications" : "Créer la récompense"}
        </SaveBar>
        <ButtonLink to="/admin/recompenses" variant="ghost" full>
          Annuler
        </ButtonLink>
      </div>
    </form>
  );
}

function RewardFormBody({ shopId, shopName }: { shopId: string; shopName: string }) {
  const [params] = useSearchParams();
  const rewardId = params.get("id");
  const list = useOwnerRewards(shopId);
  const reward = useOwnerReward(shopId, rewardId);
  if (list.isPending || (rewardId && reward.isPending)) return <Skeleton />;
  if (list.isError) return <LoadError error={list.error} onRetry={() => list.refetch()} />;
  if (rewardId && reward.isError) return <LoadError error={reward.error} onRetry={() => reward.refetch()} />;
  return (
    <RewardForm
      key={rewardId ?? "new"}
      shopId={shopId}
      shopName={shopName}
      mode={list.data.mode}
      reward={rewardId ? (reward.data ?? null) : null}
    />
  );
}

/** /admin/ajouter-un-reward (?id= to edit): a reward's form with its live preview as shoppers will see it. */
export default function RewardFormPage() {
  const [params] = useSearchParams();
  const isEdit = params.has("id");
  return (
    <BackOfficeFrame
      scope="shop"
      title={isEdit ? "Modifier la récompense" : "Nouvelle récompense"}
      lead={
        isEdit
          ? "Les changements valent pour les prochaines demandes ; celles en cours gardent leurs conditions."
          : "Ce que vos clients pourront obtenir avec leur carte."
      }
      back={{ to: "/admin/recompenses", label: "Récompenses" }}
    >
      {(shop) => <RewardFormBody shopId={shop.id} shopName={shop.name} />}
    </BackOfficeFrame>
  );
}
