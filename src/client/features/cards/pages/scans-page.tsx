import { useState } from "react";
import { useSearchParams } from "react-router";
import { SCAN_OUTCOME_LABELS_FR, SCAN_OUTCOMES, type ScanOutcome } from "../../../../domain/loyalty/scan-rules.ts";
import { Button } from "../../../components/ui/button.tsx";
import { backofficeFileUrl } from "../../../lib/download-file.ts";
import type { ShopOverview } from "../../../components/back-office/shop-overview.ts";
import { type Scan, type ScansFilter, scansQuery, useScans } from "../api/list-scans.ts";
import { BackOfficeFrame } from "../../../components/back-office/back-office-frame.tsx";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { CorrectionsFeed } from "../components/corrections-feed.tsx";
import { FlaggedItem } from "../components/flagged-item.tsx";
import { DownloadButton } from "../../../components/ui/download-button.tsx";
import { formatAmount, formatDateTime, personName, plural } from "../../../../domain/format.ts";

const PAGE = 100;

function OutcomeBadge({ scan }: { scan: Scan }) {
  const ok = scan.outcome === "accepted";
  return (
    <span
      className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${
        ok
          ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
          : "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100"
      }`}
    >
      {scan.outcomeLabel}
    </span>
  );
}

function ScanItem({ scan, mode }: { scan: Scan; mode: ShopOverview["mode"] }) {
  return (
    <FlaggedItem flagged={scan.isFlagged} labels={scan.flagLabels}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="truncate font-semibold">{personName(scan.customer)}</p>
          {scan.customer.email && personName(scan.customer) !== scan.customer.email ? (
            <p className="truncate text-sm text-stone-600 dark:text-stone-400">{scan.customer.email}</p>
          ) : null}
        </div>
        <div className="flex shrink-0 flex-col items-end gap-1">
          <OutcomeBadge scan={scan} />
          {scan.delta !== 0 ? (
            <span className="text-sm font-bold tabular-nums text-brand-800 dark:text-brand-200">
              {scan.delta > 0 ? "+" : ""}
              {formatAmount(mode, scan.delta)}
              {scan.multiplier > 1 ? ` (×${scan.multiplier})` : ""}
            </span>
          ) : null}
        </div>
      </div>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
        <time dateTime={scan.createdAt}>{formatDateTime(scan.createdAt)}</time> · {scan.methodLabel}
        {scan.deviceLabel ? ` · ${scan.deviceLabel}` : ""}
      </p>
    </FlaggedItem>
  );
}

function ScansBody({ shop }: { shop: ShopOverview }) {
  const [params] = useSearchParams();
  const [outcome, setOutcome] = useState<ScanOutcome | "">("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [flagged, setFlagged] = useState(params.get("alertes") === "1");
  const [limit, setLimit] = useState(PAGE);
  const filter: ScansFilter = { outcome, from, to, flagged, limit };
  const badRange = Boolean(from && to && from > to);
  const scans = useScans(shop.id, badRange ? { ...filter, to: "" } : filter);
  const { limit: _limit, offset: _offset, ...exportQuery } = scansQuery(filter);
  const reset = () => setLimit(PAGE);

  return (
    <>
      <fieldset className="grid grid-cols-2 gap-3 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:grid-cols-4 sm:items-end dark:border-stone-800 dark:bg-stone-900">
        <legend className="sr-only">Filtres</legend>
        <label className="col-span-2 flex flex-col gap-1.5 text-sm font-medium sm:col-span-1">
          Résultat
          <select
            value={outcome}
            onChange={(e) => {
              setOutcome(e.target.value as ScanOutcome | "");
              reset();
            }}
            className="min-h-12 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          >
            <option value="">Tous</option>
            {SCAN_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {SCAN_OUTCOME_LABELS_FR[o]}
              </option>
            ))}
          </select>
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Du
          <input
            type="date"
            value={from}
            onChange={(e) => {
              setFrom(e.target.value);
              reset();
            }}
            className="min-h-12 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <label className="flex flex-col gap-1.5 text-sm font-medium">
          Au
          <input
            type="date"
            value={to}
            min={from || undefined}
            onChange={(e) => {
              setTo(e.target.value);
              reset();
            }}
            aria-invalid={badRange || undefined}
            className="min-h-12 rounded-xl border border-stone-300 bg-white px-3 text-base dark:border-stone-700 dark:bg-stone-900"
          />
        </label>
        <label className="col-span-2 flex min-h-12 items-center gap-3 text-sm font-medium sm:col-span-1">
          <input
            type="checkbox"
            checked={flagged}
            onChange={(e) => {
              setFlagged(e.target.checked);
              reset();
            }}
            className="size-5 accent-brand-700"
          />
          Alertes seulement
        </label>
        {badRange ? (
          <p className="col-span-2 text-sm font-medium text-red-700 dark:text-red-400 sm:col-span-4">
            La fin doit suivre le début.
          </p>
        ) : null}
      </fieldset>

      {scans.isPending ? (
        <Skeleton />
      ) : scans.isError ? (
        <LoadError error={scans.error} onRetry={() => scans.refetch()} />
      ) : (
        <>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <p className="font-semibold" aria-live="polite">
              {scans.data.totalIsCapped ? "Plus de " : ""}
              {plural(scans.data.total, "passage", "passages")}
              <span className="block text-sm font-normal text-stone-600 dark:text-stone-400">
                Les passages à vérifier sont en tête de liste.
              </span>
            </p>
            <DownloadButton url={backofficeFileUrl(shop.id, "scans.csv", exportQuery)} fallbackName="passages.csv">
              Exporter en CSV
            </DownloadButton>
          </div>
          {scans.data.scans.length === 0 ? (
            <div className="rounded-2xl border border-dashed border-stone-300 p-6 text-center text-stone-700 dark:border-stone-700 dark:text-stone-300">
              {outcome || from || to || flagged
                ? "Aucun passage ne correspond à ces filtres."
                : "Pas encore de passage enregistré."}
            </div>
          ) : (
            <ul className="flex flex-col gap-2" aria-label="Passages">
              {scans.data.scans.map((s) => (
                <ScanItem key={s.id} scan={s} mode={shop.mode} />
              ))}
            </ul>
          )}
          {scans.data.total > scans.data.scans.length ? (
            <Button
              variant="secondary"
              onClick={() => setLimit((l) => Math.min(500, l + PAGE))}
              disabled={limit >= 500}
              isLoading={scans.isFetching}
            >
              {limit >= 500 ? "Affinez les filtres ou exportez en CSV pour tout voir" : "Voir plus de passages"}
            </Button>
          ) : null}
        </>
      )}
    </>
  );
}

/**
 * /admin/liste-scans and /admin/scans: the team's corrections (the waiting ones to decide), then every scan
 * attempt, flagged ones first, with filters and a CSV export.
 */
export default function ScansPage() {
  return (
    <BackOfficeFrame
      scope="shop"
      title="Passages"
      lead="Chaque scan de votre code, crédité ou refusé, et pourquoi ; chaque correction de solde faite par l'équipe."
    >
      {(shop) => (
        <>
          <CorrectionsFeed shopId={shop.id} mode={shop.mode} />
          <ScansBody shop={shop} />
        </>
      )}
    </BackOfficeFrame>
  );
}
