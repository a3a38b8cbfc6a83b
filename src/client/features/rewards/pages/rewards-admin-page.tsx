import { useState } from "react";
import { Link, useLocation } from "react-router";
import { rewardSettingsSchema } from "../../../../domain/schemas/rewards.ts";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { NumberField } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { useDeleteReward } from "../api/delete-reward.ts";
import { type OwnerReward, useOwnerRewards } from "../api/list-owner-rewards.ts";
import { useReorderRewards } from "../api/reorder-rewards.ts";
import { type RewardSettings, useRewardSettings, useSaveRewardSettings } from "../api/reward-settings.ts";
import { useSetRewardActive } from "../api/set-reward-active.ts";
import { useVipTiers } from "../api/vip-tiers.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { GiftIcon } from "../components/gift-icon.tsx";
import { RecentRedemptions } from "../components/recent-redemptions.tsx";
import { VipEditor } from "../components/vip-editor.tsx";
import { Form } from "../../../components/ui/form.tsx";
import { ConfirmBox } from "../../../components/ui/confirm-box.tsx";

/* The catalogue ---------------------------------------------------------------- */

function ActiveSwitch({ reward, onToggle, busy }: { reward: OwnerReward; onToggle: () => void; busy: boolean }) {
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        role="switch"
        aria-checked={reward.isActive}
        aria-label={`Proposer « ${reward.title} » aux clients`}
        onClick={onToggle}
        disabled={busy}
        className={`relative inline-flex h-8 w-14 shrink-0 items-center rounded-full transition disabled:opacity-60 ${
          reward.isActive ? "bg-brand-700" : "bg-stone-400 dark:bg-stone-600"
        }`}
      >
        <span
          className={`inline-block size-6 rounded-full bg-white shadow transition-transform ${reward.isActive ? "translate-x-7" : "translate-x-1"}`}
          aria-hidden="true"
        />
      </button>
      <span
        className={`text-sm font-semibold ${reward.isActive ? "text-brand-800 dark:text-brand-200" : "text-stone-600 dark:text-stone-400"}`}
        aria-hidden="true"
      >
        {reward.isActive ? "Proposée" : "En pause"}
      </span>
    </div>
  );
}

const smallButton =
  "inline-flex min-h-10 min-w-10 items-center justify-center rounded-lg border border-stone-300 px-3 text-sm font-semibold text-stone-800 hover:bg-stone-100 disabled:opacity-40 dark:border-stone-700 dark:text-stone-200 dark:hover:bg-stone-800";

function RewardItem({
  shopId,
  reward,
  index,
  count,
  onMove,
  onNotice,
}: {
  shopId: string;
  reward: OwnerReward;
  index: number;
  count: number;
  onMove: (from: number, to: number) => void;
  onNotice: (notice: { tone: "success" | "error"; text: string }) => void;
}) {
  const setActive = useSetRewardActive(shopId);
  const remove = useDeleteReward(shopId);
  const [confirming, setConfirming] = useState(false);

  const toggle = () =>
    setActive
      .mutateAsync({ rewardId: reward.id, isActive: !reward.isActive })
      .catch((e: unknown) =>
        onNotice({ tone: "error", text: errorText(e, "Le changement n'a pas pu être enregistré.") }),
      );
  // The notice belongs to the list: it must still show once this row is gone (mutateAsync, not mutate's callbacks).
  const destroy = () =>
    remove.mutateAsync(reward.id).then(
      ({ archived }) =>
        onNotice({
          tone: "success",
          text: archived
            ? `« ${reward.title} » a été archivée : elle a déjà été utilisée, son historique est conservé. Vos clients ne la voient plus.`
            : `« ${reward.title} » a été supprimée.`,
        }),
      (e: unknown) => onNotice({ tone: "error", text: errorText(e, "La suppression a échoué.") }),
    );

  return (
    <li
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900"
      data-testid="owner-reward"
    >
      <div className="flex items-start gap-3">
        {reward.photoUrl ? (
          <img src={reward.photoUrl} alt="" className="size-16 shrink-0 rounded-xl object-cover" />
        ) : (
          <span className="flex size-16 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
            <GiftIcon className="size-8" />
          </span>
        )}
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold leading-snug break-words">
            <Link to={`/admin/${reward.slug}`} className="underline decoration-stone-300 underline-offset-4">
              {reward.title}
            </Link>
          </h3>
          <p className="mt-0.5 text-sm font-medium text-stone-800 dark:text-stone-200">
            {reward.costLabel} · {reward.kind === "ladder" ? "Palier (une seule fois)" : "Répétable"}
          </p>
          <p className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">
            {reward.stock === null ? "Stock illimité" : reward.stock === 0 ? "Épuisée" : `Stock : ${reward.stock}`} ·{" "}
            {reward.pending} en attente · {reward.validated} remise{reward.validated > 1 ? "s" : ""}
          </p>
        </div>
      </div>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <ActiveSwitch reward={reward} onToggle={toggle} busy={setActive.isPending} />
        <div className="flex flex-wrap items-center gap-2">
          <button
            type="button"
            className={smallButton}
            disabled={index === 0}
            onClick={() => onMove(index, index - 1)}
            aria-label={`Monter « ${reward.title} »`}
          >
            <span aria-hidden="true">↑</span>
          </button>
          <button
            type="button"
            className={smallButton}
            disabled={index === count - 1}
            onClick={() => onMove(index, index + 1)}
            aria-label={`Descendre « ${reward.title} »`}
          >
            <span aria-hidden="true">↓</span>
          </button>
          <Link to={`/admin/ajouter-un-reward?id=${reward.id}`} className={smallButton}>
            Modifier<span className="sr-only"> « {reward.title} »</span>
          </Link>
          <button
            type="button"
            className={`${smallButton} !text-red-700 dark:!text-red-400`}
            onClick={() => setConfirming(true)}
          >
            Supprimer<span className="sr-only"> « {reward.title} »</span>
          </button>
        </div>
      </div>
      {confirming ? (
        <ConfirmBox
          className="mt-3"
          label={`Supprimer « ${reward.title} »`}
          confirmLabel="Supprimer"
          isLoading={remove.isPending || remove.isSuccess}
          onConfirm={destroy}
          onCancel={() => setConfirming(false)}
        >
          <p>
            Supprimer « {reward.title} » ?{" "}
            {reward.pending + reward.validated > 0
              ? "Elle a déjà été utilisée : elle sera archivée (cachée à vos clients, historique conservé)."
              : "Elle disparaîtra de votre page et des niveaux VIP."}
          </p>
        </ConfirmBox>
      ) : null}
    </li>
  );
}

function Catalogue({ shopId, rewards }: { shopId: string; rewards: OwnerReward[] }) {
  const reorder = useReorderRewards(shopId);
  const { state } = useLocation() as { state: { saved?: string } | null };
  const [notice, setNotice] = useState<{ tone: "success" | "error"; text: string } | null>(
    state?.saved ? { tone: "success", text: `« ${state.saved} » est enregistrée.` } : null,
  );
  const move = async (from: number, to: number) => {
    const ids = rewards.map((r) => r.id);
    const [moved] = ids.splice(from, 1);
    if (!moved) return;
    ids.splice(to, 0, moved);
    setNotice(null);
    await reorder
      .mutateAsync(ids)
      .catch((e: unknown) =>
        setNotice({ tone: "error", text: errorText(e, "Le nouvel ordre n'a pas pu être enregistré.") }),
      );
  };
  return (
    <Section
      title="Vos récompenses"
      id="catalogue"
      lead="Dans l'ordre où vos clients les voient sur votre page. Une récompense en pause est cachée aux clients."
    >
      <div className="flex flex-col gap-3">
        {notice ? <Notice tone={notice.tone}>{notice.text}</Notice> : null}
        {rewards.length === 0 ? (
          <div className="rounded-2xl border border-dashed border-stone-300 p-6 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300">
            <p className="font-semibold">Aucune récompense pour l'instant</p>
            <p className="mt-1 text-sm">
              Exemple : un café offert pour 10 tampons, une viennoiserie pour 5. Vos clients la verront sur votre page.
            </p>
          </div>
        ) : (
          <ol className="flex flex-col gap-3">
            {rewards.map((reward, i) => (
              <RewardItem
                key={reward.id}
                shopId={shopId}
                reward={reward}
                index={i}
                count={rewards.length}
                onMove={move}
                onNotice={setNotice}
              />
            ))}
          </ol>
        )}
        <ButtonLink to="/admin/ajouter-un-reward" full>
          + Nouvelle récompense
        </ButtonLink>
      </div>
    </Section>
  );
}

/* Settings --------------------------------------------------------------------- */

function SettingsForm({
  shopId,
  settings,
  rewards,
}: {
  shopId: string;
  settings: RewardSettings;
  rewards: OwnerReward[];
}) {
  const save = useSaveRewardSettings(shopId);
  const [saved, setSaved] = useState(false);
  const form = useForm(rewardSettingsSchema, async (values) => {
    setSaved(false);
    await save(values);
    setSaved(true);
  });
  return (
    <Section title="Réglages" id="reglages" lead="Valables pour toutes vos récompenses.">
      <Form form={form} onChange={() => setSaved(false)}>
        <NumberField
          label="Délai pour valider au comptoir (minutes)"
          name="redemptionTtlMinutes"
          min={1}
          max={1440}
          defaultValue={settings.redemptionTtlMinutes}
          hint="Après « Utiliser », le client a ce temps pour montrer son code. Passé ce délai, son solde lui est rendu."
          error={form.fieldErrors.redemptionTtlMinutes}
        />
        <SelectField
          label="Cadeau d'anniversaire"
          name="birthdayRewardId"
          defaultValue={settings.birthdayRewardId ?? ""}
          hint="Offert une fois par an, la semaine de l'anniversaire du client (s'il a indiqué sa date de naissance)."
          error={form.fieldErrors.birthdayRewardId}
          options={rewards.map((r) => ({ value: r.id, label: r.title }))}
        >
          <option value="">Pas de cadeau d'anniversaire</option>
        </SelectField>
        {saved ? <Notice tone="success">Réglages enregistrés.</Notice> : null}
        <Button type="submit" isLoading={form.isSubmitting}>
          Enregistrer les réglages
        </Button>
      </Form>
    </Section>
  );
}

function RewardsAdminBody({ shopId }: { shopId: string }) {
  const list = useOwnerRewards(shopId);
  const settings = useRewardSettings(shopId);
  const tiers = useVipTiers(shopId);
  if (list.isPending) return <Skeleton />;
  if (list.isError) return <LoadError error={list.error} onRetry={() => list.refetch()} />;
  const { rewards, mode } = list.data;
  return (
    <>
      <Catalogue shopId={shopId} rewards={rewards} />
      <RecentRedemptions shopId={shopId} />
      {settings.isPending ? (
        <Skeleton />
      ) : settings.isError ? (
        <LoadError error={settings.error} onRetry={() => settings.refetch()} />
      ) : (
        <SettingsForm key={shopId} shopId={shopId} settings={settings.data} rewards={rewards} />
      )}
      {tiers.isPending ? (
        <Skeleton />
      ) : tiers.isError ? (
        <LoadError error={tiers.error} onRetry={() => tiers.refetch()} />
      ) : (
        <VipEditor key={shopId} shopId={shopId} tiers={tiers.data} rewards={rewards} mode={mode} />
      )}
    </>
  );
}

/** /admin/recompenses: the catalogue (order, on/off, edit, delete), recent redemptions, settings and VIP levels. */
export default function RewardsAdminPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Récompenses"
      lead="Ce que vos clients peuvent obtenir avec leur carte, et les niveaux VIP de vos habitués."
    >
      {(shop) => <RewardsAdminBody shopId={shop.id} />}
    </BackOfficeFrame>
  );
}
