import { useState } from "react";
import {
  formatAmount,
  formatDecimal,
  formatLocalDate,
  formatLocalDateShort,
  formatLocalMonth,
  formatMoment,
  formatNumber,
  formatPercent,
  plural,
} from "../../../../domain/format.ts";
import { visitsFr } from "../../../../domain/phrases.ts";
import { BarChart, type ChartPoint } from "../../../components/charts/bar-chart.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { type Retention, useRetention, useSendWinBack } from "../api/get-retention.ts";

type Mode = "stamps" | "points";

/** « tous les 9 jours », « tous les 2,5 jours » */
const everyFr = (days: number) => `tous les ${formatDecimal(days)} ${days >= 2 ? "jours" : "jour"}`;

/** Months of first visit down, months after across: the share of each month's newcomers who came back. */
function CohortGrid({ cohorts }: { cohorts: Retention["cohorts"] }) {
  const width = Math.max(0, ...cohorts.map((c) => c.returned.length));
  if (cohorts.length === 0 || width === 0) {
    return <p className="text-sm text-stone-600 dark:text-stone-400">Le tableau se remplira au fil des mois.</p>;
  }
  const offsets = Array.from({ length: width }, (_, k) => k + 1);
  return (
    /* Wider than a phone: the table scrolls sideways in its own box, by keyboard too. */
    <div
      className="overflow-x-auto rounded-xl border border-stone-200 dark:border-stone-800"
      role="region"
      aria-label="Retour des clients par mois de première visite"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take the keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table className="min-w-full text-sm tabular-nums">
        <caption className="sr-only">
          Pour chaque mois de première visite : le nombre de nouveaux clients, puis la part revenue chaque mois suivant.
        </caption>
        <thead className="bg-stone-50 text-left dark:bg-stone-800">
          <tr>
            <th scope="col" className="px-3 py-2 font-semibold">
              Première visite
            </th>
            <th scope="col" className="px-3 py-2 text-right font-semibold">
              Clients
            </th>
            {offsets.map((offset) => (
              <th key={offset} scope="col" className="whitespace-nowrap px-3 py-2 text-right font-semibold">
                {plural(offset, "mois", "mois")} après
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {cohorts.map((c) => (
            <tr key={c.month} className="border-t border-stone-200 dark:border-stone-800">
              <th scope="row" className="whitespace-nowrap px-3 py-2 text-left font-medium">
                {formatLocalMonth(c.month)}
              </th>
              <td className="px-3 py-2 text-right">{formatNumber(c.customers)}</td>
              {offsets.map((offset) => {
                const n = c.returned[offset - 1];
                if (n === undefined) return <td key={offset} className="px-3 py-2" />;
                const rate = c.customers > 0 ? n / c.customers : 0;
                return (
                  <td
                    key={offset}
                    className={`px-3 py-2 text-right ${rate >= 0.4 ? "bg-brand-100 font-semibold text-brand-950 dark:bg-brand-900 dark:text-brand-50" : rate >= 0.2 ? "bg-brand-50 text-brand-950 dark:bg-stone-800 dark:text-brand-100" : ""}`}
                  >
                    {formatPercent(rate)}
                    <span className="sr-only"> ({plural(n, "client", "clients")})</span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The customers past their own rhythm, the most loyal first, each with a win-back to send in one tap. */
function AtRisk({ shopId, atRisk }: { shopId: string; atRisk: Retention["atRisk"] }) {
  const send = useSendWinBack(shopId);
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (atRisk.count === 0) {
    return <p className="text-sm text-stone-600 dark:text-stone-400">Aucun habitué n'a dépassé son rythme : bravo.</p>;
  }
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        {plural(atRisk.count, "habitué n'est pas revenu", "habitués ne sont pas revenus")} depuis plus de deux fois leur
        rythme habituel.
        {atRisk.count > atRisk.people.length ? ` Les ${formatNumber(atRisk.people.length)} plus fidèles :` : ""}
      </p>
      {sentTo ? <Notice tone="success">« Vous nous manquez » est parti pour {sentTo}.</Notice> : null}
      {send.error ? <Notice tone="error">{send.error.message}</Notice> : null}
      <ul className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
        {atRisk.people.map((p) => (
          <li key={p.cardId} className="flex flex-wrap items-center justify-between gap-2 py-3">
            <div className="min-w-0">
              <p className="font-semibold">{p.name}</p>
              <p className="text-sm text-stone-600 dark:text-stone-400">
                Venait {everyFr(p.rhythmDays)} · dernière visite {p.lastVisit ? formatMoment(p.lastVisit) : "inconnue"}
              </p>
            </div>
            {p.winBackSent ? (
              <span className="text-sm font-medium text-emerald-800 dark:text-emerald-300">Message envoyé</span>
            ) : (
              <Button
                variant="secondary"
                className="min-h-11 px-4 text-sm"
                isLoading={send.isPending && send.variables === p.cardId}
                aria-label={`Envoyer « Vous nous manquez » à ${p.name}`}
                onClick={() => send.mutate(p.cardId, { onSuccess: () => setSentTo(p.name) })}
              >
                Envoyer « Vous nous manquez »
              </Button>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Body({ shopId, mode, data }: { shopId: string; mode: Mode; data: Retention }) {
  const points: ChartPoint[] = data.weeks.map((w) => ({
    key: w.week,
    label: `semaine du ${formatLocalDate(w.week)}`,
    tick: formatLocalDateShort(w.week),
  }));
  const newcomers = data.weeks.reduce((n, w) => n + w.newCustomers, 0);
  const returning = data.weeks.reduce((n, w) => n + w.returningVisits, 0);
  return (
    <div className="flex flex-col gap-6">
      <dl className="grid grid-cols-2 gap-3">
        <div className="rounded-2xl border border-stone-200 p-4 dark:border-stone-800">
          <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">Rythme habituel</dt>
          <dd className="mt-1 text-xl font-bold">
            {data.medianDaysBetweenVisits === null ? "Pas encore d'habitués" : everyFr(data.medianDaysBetweenVisits)}
          </dd>
          <dd className="text-sm text-stone-600 dark:text-stone-400">médiane de vos habitués</dd>
        </div>
        <div className="rounded-2xl border border-stone-200 p-4 dark:border-stone-800">
          <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">Clients à risque</dt>
          <dd className="mt-1 text-xl font-bold tabular-nums" data-testid="at-risk-count">
            {formatNumber(data.atRisk.count)}
          </dd>
          <dd className="text-sm text-stone-600 dark:text-stone-400">en retard sur leur rythme</dd>
        </div>
      </dl>
      <BarChart
        title="Nouveaux et fidèles, semaine par semaine"
        summary={`${plural(newcomers, "nouveau client", "nouveaux clients")}, ${plural(returning, "passage", "passages")} de clients déjà venus`}
        points={points}
        series={[
          { label: "Nouveaux clients", values: data.weeks.map((w) => w.newCustomers), tone: "accent" },
          { label: "Passages de clients déjà venus", values: data.weeks.map((w) => w.returningVisits) },
        ]}
      />
      <div className="flex flex-col gap-2">
        <h3 className="font-semibold">Reviennent-ils ?</h3>
        <CohortGrid cohorts={data.cohorts} />
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="font-semibold">Clients à risque</h3>
        <AtRisk shopId={shopId} atRisk={data.atRisk} />
      </div>
      <div className="flex flex-col gap-2">
        <h3 className="font-semibold">Vos meilleurs clients</h3>
        {data.top.length === 0 ? (
          <p className="text-sm text-stone-600 dark:text-stone-400">Pas encore de client.</p>
        ) : (
          <ol className="flex flex-col divide-y divide-stone-200 dark:divide-stone-800">
            {data.top.map((p, i) => (
              <li key={p.cardId} className="flex items-baseline justify-between gap-3 py-2">
                <span className="min-w-0">
                  <span className="mr-2 text-stone-600 tabular-nums dark:text-stone-400">{i + 1}.</span>
                  <span className="font-medium">{p.name}</span>
                </span>
                <span className="shrink-0 text-sm text-stone-700 dark:text-stone-300">
                  {visitsFr(p.visits)} · {formatAmount(mode, p.lifetime)}
                </span>
              </li>
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}

/** « Fidélisation » on /admin: do customers come back, who is slipping away, who are the best (issue 27 item 3). */
export function RetentionSection({ shopId, mode }: { shopId: string; mode: Mode }) {
  const retention = useRetention(shopId);
  return (
    <Section title="Fidélisation" lead="Vos clients reviennent-ils, et qui est en train de s'éloigner ?">
      <QueryState query={retention} blocks={3}>
        {(data) => <Body shopId={shopId} mode={mode} data={data} />}
      </QueryState>
    </Section>
  );
}
