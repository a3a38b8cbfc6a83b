import { useState } from "react";
import { plural } from "../../../../domain/format.ts";
import { Link, useLocation } from "react-router";
import { VIP_MULTIPLIER_MAX, VIP_TIERS_MAX } from "../../../../domain/loyalty/rewards.ts";
import { rewardSettingsSchema, vipTiersSchema } from "../../../../domain/schemas/rewards.ts";
import { formatMomentFr } from "../../../components/loyalty/format.ts";
import { Button, ButtonLink } from "../../../components/ui/button.tsx";
import { Field } from "../../../components/ui/field.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { SelectField } from "../../../components/ui/select-field.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { useForm } from "../../../lib/use-form.ts";
import { useDeleteReward } from "../api/delete-reward.ts";
import { type OwnerReward, useOwnerRewards } from "../api/list-owner-rewards.ts";
import { type ShopRedemption, useShopRedemptions } from "../api/list-shop-redemptions.ts";
import { useReorderRewards } from "../api/reorder-rewards.ts";
import { type RewardSettings, useRewardSettings, useSaveRewardSettings } from "../api/reward-settings.ts";
import { useSetRewardActive } from "../api/set-reward-active.ts";
import { useSaveVipTiers, type VipTier, useVipTiers } from "../api/vip-tiers.ts";
import { AdminFrame, LoadError, Panel, Skeleton } from "../components/admin-frame.tsx";
import { GiftIcon } from "../components/gift-icon.tsx";

type Mode = "stamps" | "points";
const unitWord = (mode: Mode) => (mode === "stamps" ? "tampons" : "points");

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
  const [busy, setBusy] = useState<"toggle" | "delete" | null>(null);
  const [confirming, setConfirming] = useState(false);

  const toggle = async () => {
    setBusy("toggle");
    try {
      await setActive(reward.id, !reward.isActive);
    } catch (e) {
      onNotice({
        tone: "error",
        text: e instanceof ApiError ? e.message : "Le changement n'a pas pu être enregistré.",
      });
    } finally {
      setBusy(null);
    }
  };
  const destroy = async () => {
    setBusy("delete");
    try {
      const { archived } = await remove(reward.id);
      onNotice({
        tone: "success",
        text: archived
          ? `« ${reward.title} » a été archivée : elle a déjà été utilisée, son historique est conservé. Vos clients ne la voient plus.`
          : `« ${reward.title} » a été supprimée.`,
      });
    } catch (e) {
      onNotice({ tone: "error", text: e instanceof ApiError ? e.message : "La suppression a échoué." });
      setBusy(null);
    }
  };

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
          <h3 className="font-semibold leading-snug break-words">{reward.title}</h3>
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
        <ActiveSwitch reward={reward} onToggle={toggle} busy={busy === "toggle"} />
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
        <div
          className="mt-3 rounded-xl bg-red-50 p-3 text-sm text-red-950 dark:bg-red-950 dark:text-red-100"
          role="group"
          aria-label={`Supprimer « ${reward.title} »`}
        >
          <p>
            Supprimer « {reward.title} » ?{" "}
            {reward.pending + reward.validated > 0
              ? "Elle a déjà été utilisée : elle sera archivée (cachée à vos clients, historique conservé)."
              : "Elle disparaîtra de votre page et des niveaux VIP."}
          </p>
          <div className="mt-2 flex gap-2">
            <Button variant="danger" isLoading={busy === "delete"} onClick={destroy}>
              Supprimer
            </Button>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Annuler
            </Button>
          </div>
        </div>
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
    try {
      await reorder(ids);
    } catch (e) {
      setNotice({
        tone: "error",
        text: e instanceof ApiError ? e.message : "Le nouvel ordre n'a pas pu être enregistré.",
      });
    }
  };
  return (
    <Panel
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
    </Panel>
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
    <Panel title="Réglages" id="reglages" lead="Valables pour toutes vos récompenses.">
      <form onSubmit={form.handleSubmit} noValidate className="flex flex-col gap-4" onChange={() => setSaved(false)}>
        {form.formError ? <Notice tone="error">{form.formError}</Notice> : null}
        <Field
          label="Délai pour valider au comptoir (minutes)"
          name="redemptionTtlMinutes"
          type="number"
          inputMode="numeric"
          min={1}
          max={1440}
          defaultValue={settings.redemptionTtlMinutes}
          hint="Après « Utiliser », le client a ce temps pour montrer son code. Passé ce délai, ses points lui sont rendus."
          error={form.fieldErrors.redemptionTtlMinutes}
        />
        <SelectField
          label="Cadeau d'anniversaire"
          name="birthdayRewardId"
          defaultValue={settings.birthdayRewardId ?? ""}
          hint="Offert une fois par an, la semaine de l'anniversaire du client (s'il a indiqué sa date de naissance)."
          error={form.fieldErrors.birthdayRewardId}
        >
          <option value="">Pas de cadeau d'anniversaire</option>
          {rewards.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </SelectField>
        {saved ? <Notice tone="success">Réglages enregistrés.</Notice> : null}
        <Button type="submit" isLoading={form.isSubmitting}>
          Enregistrer les réglages
        </Button>
      </form>
    </Panel>
  );
}

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

function VipEditor({
  shopId,
  tiers,
  rewards,
  mode,
}: {
  shopId: string;
  tiers: VipTier[];
  rewards: OwnerReward[];
  mode: Mode;
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
    <Panel
      title="Niveaux VIP"
      id="niveaux-vip"
      lead={`Jusqu'à ${VIP_TIERS_MAX} niveaux, atteints avec les ${unitWord(mode)} gagnés depuis le premier passage : utiliser une récompense ne fait jamais perdre un niveau.`}
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
            Pas encore de niveaux. Exemple : Argent dès 50 {unitWord(mode)}, Or dès 150 avec les {unitWord(mode)} ×2.
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
                      Retirer<span className="sr-only"> le niveau {i + 1}</span>
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
                    <Field
                      label={`Seuil (${unitWord(mode)})`}
                      type="number"
                      inputMode="numeric"
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
                    >
                      <option value="">Aucun cadeau</option>
                      {rewards.map((r) => (
                        <option key={r.id} value={r.id}>
                          {r.title}
                        </option>
                      ))}
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
          Le bonus multiplie les {unitWord(mode)} de chaque passage (le meilleur des deux s'il y a aussi une opération
          de points doublés). Le cadeau est offert une fois, en atteignant le niveau ; une récompense en pause peut
          rester un cadeau.
        </p>
        {saved ? (
          <Notice tone="success">Niveaux VIP enregistrés : vos clients voient leur niveau tout de suite.</Notice>
        ) : null}
        <Button type="submit" isLoading={form.isSubmitting}>
          Enregistrer les niveaux
        </Button>
      </form>
    </Panel>
  );
}

/* Recent redemptions ---------------------------------------------------------- */

const STATUS_TONES: Record<ShopRedemption["status"], string> = {
  pending: "bg-amber-100 text-amber-950 dark:bg-amber-950 dark:text-amber-100",
  validated: "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100",
  refused: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
  cancelled: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
  expired: "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100",
};

function RecentRedemptions({ shopId }: { shopId: string }) {
  const list = useShopRedemptions(shopId, "all", 20);
  const pending = list.data?.filter((r) => r.status === "pending").length ?? 0;
  return (
    <Panel
      title="À valider / récentes"
      id="recentes"
      lead={
        pending > 0
          ? `${plural(pending, "récompense", "récompenses")} en attente au comptoir.`
          : "Les 20 dernières demandes de vos clients."
      }
      actions={
        <ButtonLink to="/admin/validate-reward" variant="secondary" className="!min-h-10 text-sm">
          Valider un code
        </ButtonLink>
      }
    >
      {list.isPending ? (
        <p className="text-sm text-stone-600 dark:text-stone-400" aria-busy="true">
          Chargement…
        </p>
      ) : list.isError ? (
        <LoadError error={list.error} onRetry={() => list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="text-sm text-stone-700 dark:text-stone-300">Aucune demande pour l'instant.</p>
      ) : (
        <ul className="divide-y divide-stone-100 dark:divide-stone-800">
          {list.data.map((r) => (
            <li key={r.id} className="flex items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-semibold break-words">{r.title}</p>
                <p className="text-sm text-stone-600 dark:text-stone-400">
                  {r.customer} · {r.costLabel} · {formatMomentFr(r.createdAt)}
                  {r.status === "pending" ? (
                    <>
                      {" "}
                      · code <span className="font-mono font-semibold">{r.code}</span>
                    </>
                  ) : null}
                </p>
                {r.decidedByName && r.status === "validated" ? (
                  <p className="text-xs text-stone-600 dark:text-stone-400">Validée par {r.decidedByName}</p>
                ) : null}
                {r.refuseReason ? (
                  <p className="text-xs text-stone-600 italic dark:text-stone-400">« {r.refuseReason} »</p>
                ) : null}
              </div>
              <span className={`shrink-0 rounded-full px-2.5 py-0.5 text-xs font-semibold ${STATUS_TONES[r.status]}`}>
                {r.statusLabel}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
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
    <AdminFrame
      title="Récompenses"
      lead="Ce que vos clients peuvent obtenir avec leurs points, et les niveaux VIP de vos habitués."
    >
      {(shop) => <RewardsAdminBody shopId={shop.id} />}
    </AdminFrame>
  );
}
