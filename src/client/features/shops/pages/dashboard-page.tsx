import { queryOptions, useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { Link } from "react-router";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useDashboard } from "../api/get-dashboard.ts";
import type { ShopOverview } from "../../../components/back-office/shop-overview.ts";
import { BackOfficeTiles } from "../../../components/back-office/back-office-menu.tsx";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { formatAmount, formatLocalDate, formatNumber, plural } from "../../../../domain/format.ts";
import { shopsKeys } from "../api/keys.ts";
import { RetentionSection } from "../components/retention-section.tsx";
import { useCurrentShop } from "../../../components/shop/current-shop.ts";
import { RewardMissing, useFreshCardSettings } from "../components/reward-missing.tsx";

const PERIODS = [7, 30, 90] as const;

// The charts' code comes once the figures are on screen: the figures never wait for it (issue 25 row 11).
const DashboardCharts = lazy(() =>
  import("../components/dashboard-charts.tsx").then((m) => ({ default: m.DashboardCharts })),
);

/** Where the four charts will be, their height kept so nothing below moves when they arrive. */
function ChartsPlaceholder() {
  return (
    <div className="grid gap-4 md:grid-cols-2" aria-hidden="true">
      {["scans", "points", "newcomers", "rewards"].map((key) => (
        <div key={key} className="h-64 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" />
      ))}
    </div>
  );
}

function Kpi({
  label,
  value,
  detail,
  tone = "default",
}: {
  label: string;
  value: number;
  detail?: string;
  tone?: "default" | "warn";
}) {
  return (
    <div
      className={`rounded-2xl border p-4 shadow-sm ${
        tone === "warn"
          ? "border-amber-300 bg-amber-50 dark:border-amber-800 dark:bg-amber-950"
          : "border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900"
      }`}
    >
      <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-1 text-3xl font-bold tabular-nums tracking-tight">{formatNumber(value)}</dd>
      {detail ? <dd className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{detail}</dd> : null}
    </div>
  );
}

/** GET …/owed: rewards waiting at the counter, handed over lately, and the points customers hold (a liability). */
const getOwed = (shopId: string) => unwrap(api.backoffice.shops[":shopId"].owed.$get({ param: { shopId } }));
const owedQueryOptions = (shopId: string) =>
  queryOptions({
    queryKey: shopsKeys.owed(shopId),
    queryFn: () => getOwed(shopId),
    refetchInterval: 60_000,
  });
const useOwed = (shopId: string | null) => useQuery({ ...owedQueryOptions(shopId ?? ""), enabled: Boolean(shopId) });

/** "Ce que vous devez": what the shop owes its customers, now and in points still to spend. */
function OwedSection({ shopId }: { shopId: string }) {
  const owed = useOwed(shopId);
  return (
    <section aria-labelledby="owed-title" className="flex flex-col gap-3">
      <h2 id="owed-title" className="text-lg font-semibold">
        Ce que vous devez
      </h2>
      {owed.isPending ? (
        <div className="h-28 animate-pulse rounded-2xl bg-stone-200/70 dark:bg-stone-800" aria-busy="true">
          <span className="sr-only">Chargement…</span>
        </div>
      ) : owed.isError ? (
        <p className="text-sm font-medium text-red-700 dark:text-red-400">{owed.error.message}</p>
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            <Kpi
              label="À remettre au comptoir"
              value={owed.data.pending.count}
              detail={owed.data.pending.count > 0 ? `soit ${owed.data.pending.costLabel}` : "Aucune en attente"}
              tone={owed.data.pending.count > 0 ? "warn" : "default"}
            />
            <Kpi
              label={`Remises (${owed.data.days} j)`}
              value={owed.data.validated.count}
              detail={`soit ${owed.data.validated.costLabel}`}
            />
            <Kpi
              label={owed.data.mode === "stamps" ? "Tampons en circulation" : "Points en circulation"}
              value={owed.data.outstanding.points}
              detail={`chez ${plural(owed.data.outstanding.holders, "client", "clients")}`}
            />
            <Kpi
              label="Peuvent échanger maintenant"
              value={owed.data.canRedeemNow}
              detail={
                owed.data.cheapestRewardLabel
                  ? `${owed.data.canRedeemNow > 1 ? "clients" : "client"} · récompense dès ${owed.data.cheapestRewardLabel}`
                  : "aucune récompense proposée"
              }
            />
          </dl>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            Les {owed.data.mode === "stamps" ? "tampons" : "points"} en circulation sont une dette envers vos clients :
            chacun peut devenir une récompense à offrir.
          </p>
          <div className="flex flex-wrap gap-3">
            <Link
              to="/admin/validate-reward"
              className="inline-flex min-h-12 items-center rounded-xl bg-brand-700 px-5 font-semibold text-white hover:bg-brand-800"
            >
              Valider une récompense
            </Link>
            <Link
              to="/admin/recompenses"
              className="inline-flex min-h-12 items-center rounded-xl border border-stone-300 bg-white px-5 font-semibold text-stone-900 hover:bg-stone-100 dark:border-stone-700 dark:bg-stone-900 dark:text-stone-100"
            >
              Mes récompenses
            </Link>
          </div>
        </>
      )}
    </section>
  );
}

function DashboardBody({ shop, days }: { shop: ShopOverview; days: number }) {
  const dashboard = useDashboard(shop.id, days);
  if (dashboard.isPending) return <Skeleton blocks={4} />;
  if (dashboard.isError) return <LoadError error={dashboard.error} onRetry={() => dashboard.refetch()} />;
  const t = dashboard.data.totals;
  const unit = shop.mode === "stamps" ? "Tampons donnés" : "Points donnés";
  const isEmpty = t.customers === 0 && t.scans === 0 && t.refused === 0;
  return (
    <>
      <p className="text-sm text-stone-600 dark:text-stone-400">
        Du {formatLocalDate(dashboard.data.from)} au {formatLocalDate(dashboard.data.to)}
      </p>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Kpi label="Clients" value={t.customers} detail={`+${plural(t.newCustomers, "nouveau", "nouveaux")}`} />
        <Kpi label="Passages crédités" value={t.scans} detail={plural(t.refused, "refusé", "refusés")} />
        <Kpi label={unit} value={t.points} detail={`${formatAmount(shop.mode, t.outstandingBalance)} en circulation`} />
        <Kpi
          label="Récompenses utilisées"
          value={t.redemptions}
          detail={plural(t.activeCustomers, "client actif", "clients actifs")}
        />
      </dl>
      {t.flagged > 0 ? (
        <Link
          to="/admin/liste-scans?alertes=1"
          className="flex items-center justify-between gap-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 font-medium text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100"
        >
          <span>
            <span aria-hidden="true">⚠ </span>
            {plural(t.flagged, "passage", "passages")} à vérifier (appareil partagé, hors horaires)
          </span>
          <span aria-hidden="true">→</span>
        </Link>
      ) : null}
      {isEmpty ? (
        <div className="rounded-2xl border border-dashed border-brand-500 bg-brand-50 p-5 text-brand-900 dark:bg-stone-900 dark:text-brand-100">
          <p className="font-semibold">Pas encore de passage</p>
          <p className="mt-1 text-sm">
            Posez le code du comptoir près de la caisse : vos clients le scannent avec l'appareil photo de leur
            téléphone, et les chiffres apparaissent ici.
          </p>
        </div>
      ) : null}
      <Suspense fallback={<ChartsPlaceholder />}>
        <DashboardCharts days={dashboard.data.days} mode={shop.mode} />
      </Suspense>
    </>
  );
}

function RewardMissingNotice({ shopId }: { shopId: string }) {
  const card = useFreshCardSettings(shopId);
  return card.data && card.data.rewardsOffered === 0 ? <RewardMissing /> : null;
}

/** /admin: the shop's figures over a period, charts, and the way to every back-office page. */
export default function DashboardPage() {
  const [days, setDays] = useState<number>(30);
  // The figures are asked for as soon as the shop is known, beside its overview, not once it has come.
  const { shopId } = useCurrentShop();
  useDashboard(shopId, days);
  useOwed(shopId);
  return (
    <BackOfficeFrame
      scope="shop"
      title="Tableau de bord"
      back={null}
      actions={
        <label className="flex items-center gap-2 text-sm font-medium">
          Période
          <select
            value={days}
            onChange={(e) => setDays(Number(e.target.value))}
            className="min-h-11 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          >
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                {p} derniers jours
              </option>
            ))}
          </select>
        </label>
      }
    >
      {(shop) => (
        <>
          <p className="-mt-3 text-lg font-semibold text-brand-800 dark:text-brand-200">{shop.name}</p>
          <RewardMissingNotice shopId={shop.id} />
          <DashboardBody shop={shop} days={days} />
          <OwedSection shopId={shop.id} />
          <RetentionSection shopId={shop.id} mode={shop.mode} />
          <section aria-labelledby="counter-title" className="rounded-2xl bg-brand-900 p-5 text-white shadow-sm">
            <h2 id="counter-title" className="text-lg font-semibold">
              Au comptoir
            </h2>
            <p className="mt-1 text-sm text-brand-100">
              Affichez le code qui change toutes les 30 secondes, ou créditez un client qui n'a pas son téléphone.
            </p>
            <div className="mt-4 flex flex-wrap gap-3">
              <Link
                to="/reader"
                className="inline-flex min-h-12 items-center rounded-xl bg-white px-5 font-semibold text-brand-900 hover:bg-brand-50"
              >
                Code du comptoir
              </Link>
              <Link
                to="/manager"
                className="inline-flex min-h-12 items-center rounded-xl border border-white/50 px-5 font-semibold text-white hover:bg-white/10"
              >
                Créditer un client
              </Link>
            </div>
          </section>
          <section aria-labelledby="manage-title">
            <h2 id="manage-title" className="mb-3 text-lg font-semibold">
              Gérer ma boutique
            </h2>
            <BackOfficeTiles />
          </section>
        </>
      )}
    </BackOfficeFrame>
  );
}
