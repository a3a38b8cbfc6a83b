import { useQuery } from "@tanstack/react-query";
import {
  formatDecimal,
  formatLocalDate,
  formatLocalDateShort,
  formatNumber,
  plural,
} from "../../../../domain/format.ts";
import { BarChart } from "../../../components/charts/bar-chart.tsx";
import { QueryState } from "../../../components/ui/query-state.tsx";
import { Section } from "../../../components/ui/section.tsx";
import { api, unwrap } from "../../../lib/api-client.ts";
import { adminKeys } from "../api/keys.ts";

function Kpi({ label, value, detail }: { label: string; value: number; detail?: string }) {
  return (
    <div className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <dt className="text-sm font-medium text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="mt-1 text-3xl font-bold tabular-nums tracking-tight">{formatNumber(value)}</dd>
      {detail ? <dd className="mt-0.5 text-sm text-stone-600 dark:text-stone-400">{detail}</dd> : null}
    </div>
  );
}

/** The console's four daily figures. */
const DAILY = [
  { title: "Passages", key: "scans" },
  { title: "Nouveaux comptes", key: "signups" },
  { title: "Récompenses remises", key: "redemptions" },
  { title: "Messages", key: "messages" },
] as const;

const SEND_CHANNEL_LABELS = { push: "push", email: "par courriel", sms: "par SMS" } as const;

/** The console's first view: the last days' activity, then the instance's health. */
export function Overview() {
  const overview = useQuery({ queryKey: adminKeys.overview(), queryFn: () => unwrap(api.admin.overview.$get()) });
  return (
    <QueryState query={overview} blocks={3}>
      {(data) => (
        <>
          <Section bare stack id="activity" title={`Activité des ${data.days} derniers jours`}>
            <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
              <Kpi
                label="Boutiques"
                value={data.activity.shops}
                detail={
                  data.activity.suspendedShops > 0
                    ? plural(data.activity.suspendedShops, "suspendue", "suspendues")
                    : undefined
                }
              />
              <Kpi
                label="Comptes"
                value={data.activity.shoppers}
                detail={plural(data.activity.newShoppers, "nouveau", "nouveaux")}
              />
              <Kpi label="Passages" value={data.activity.scans} />
              <Kpi label="Récompenses remises" value={data.activity.redemptions} />
              <Kpi label="Messages envoyés" value={data.activity.messages} />
            </dl>
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
              {DAILY.map(({ title, key }) => (
                <BarChart
                  key={key}
                  compact
                  title={title}
                  summary={`${formatNumber(data.daily.reduce((sum, d) => sum + d[key], 0))} en ${data.days} jours`}
                  points={data.daily.map((d) => ({
                    key: d.date,
                    label: formatLocalDate(d.date),
                    tick: formatLocalDateShort(d.date),
                  }))}
                  series={[{ label: title, values: data.daily.map((d) => d[key]) }]}
                />
              ))}
            </div>
          </Section>
          <Section bare stack id="health" title="Santé">
            <ul className="rounded-2xl border border-stone-200 bg-white p-4 text-sm dark:border-stone-800 dark:bg-stone-900">
              <li>
                Base de données : {data.health.database}
                {data.health.databaseUp
                  ? ` — ${plural(data.health.pool.total, "connexion", "connexions")} (${plural(data.health.pool.idle, "libre", "libres")}, ${formatNumber(data.health.pool.waiting)} en attente)`
                  : " — ne répond pas"}
              </li>
              <li>Boucle d'événements : {formatDecimal(data.health.eventLoopDelayMs)} ms de retard (99e centile)</li>
              <li>
                Tâches de fond :{" "}
                {data.health.jobsStarted
                  ? `${plural(data.health.jobsQueued, "en attente", "en attente")}, ${plural(data.health.jobsFailed, "en échec", "en échec")}`
                  : "moteur pas encore démarré"}
              </li>
              <li>
                Courriels : {plural(data.health.outbox, "dans la boîte d'envoi", "dans la boîte d'envoi")}
                {data.health.outboxFailed > 0 ? `, ${plural(data.health.outboxFailed, "en échec", "en échec")}` : ""}
              </li>
              {data.health.sends.map((send) => (
                <li key={send.channel}>
                  Envois {SEND_CHANNEL_LABELS[send.channel]} : {plural(send.delivered, "remis", "remis")},{" "}
                  {plural(send.failed, "en échec", "en échec")}
                </li>
              ))}
            </ul>
          </Section>
        </>
      )}
    </QueryState>
  );
}
