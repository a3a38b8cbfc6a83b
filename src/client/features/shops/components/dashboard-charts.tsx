import {
  Area,
  AreaChart,
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { Dashboard } from "../api/get-dashboard.ts";
import { formatLocalDate, formatLocalDateShort, formatNumber, plural } from "../../../../domain/format.ts";

/**
 * The dashboard's charts. This module (and recharts with it) is loaded only by
 * the dashboard, through React.lazy: a shopper's page never downloads it.
 */
type Day = Dashboard["days"][number];

const BRAND = "#0f766e";
const BRAND_LIGHT = "#99f6e4";
const ACCENT = "#d97706";
const MUTED = "#a8a29e";

const axisTick = { fontSize: 12, fill: "#57534e" };
const tooltipLabel = (label: unknown) => (typeof label === "string" ? formatLocalDate(label) : String(label));
const tooltipValue = (value: unknown) => formatNumber(Number(value));

function ChartFigure({ title, summary, children }: { title: string; summary: string; children: React.ReactNode }) {
  return (
    <figure className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900">
      <figcaption>
        <span className="block font-semibold">{title}</span>
        <span className="block text-sm text-stone-600 dark:text-stone-400">{summary}</span>
      </figcaption>
      <div className="mt-3 h-52 w-full" aria-hidden="true">
        {children}
      </div>
    </figure>
  );
}

const sum = (days: readonly Day[], key: keyof Omit<Day, "date">) => days.reduce((s, d) => s + d[key], 0);

export default function DashboardCharts({ days, mode }: { days: readonly Day[]; mode: "stamps" | "points" }) {
  const data = days.map((d) => ({ ...d, label: formatLocalDateShort(d.date) }));
  const unit = mode === "stamps" ? "Tampons" : "Points";
  const interval = Math.max(0, Math.ceil(days.length / 6) - 1);
  const xAxis = (
    <XAxis
      dataKey="date"
      tickFormatter={(v: string) => formatLocalDateShort(v)}
      tick={axisTick}
      interval={interval}
      tickLine={false}
    />
  );
  const yAxis = <YAxis allowDecimals={false} tick={axisTick} width={32} tickLine={false} axisLine={false} />;
  const grid = <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />;
  const tooltip = <Tooltip labelFormatter={tooltipLabel} formatter={tooltipValue} />;
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <ChartFigure
        title="Passages par jour"
        summary={`${plural(sum(days, "scans"), "crédité", "crédités")}, ${plural(sum(days, "refused"), "refusé", "refusés")}`}
      >
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
            {grid}
            {xAxis}
            {yAxis}
            {tooltip}
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Bar dataKey="scans" name="Crédités" stackId="s" fill={BRAND} radius={[0, 0, 0, 0]} />
            <Bar dataKey="refused" name="Refusés" stackId="s" fill={MUTED} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure title={`${unit} distribués`} summary={`${formatNumber(sum(days, "points"))} sur la période`}>
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
            {grid}
            {xAxis}
            {yAxis}
            {tooltip}
            <Area type="monotone" dataKey="points" name={unit} stroke={BRAND} fill={BRAND_LIGHT} strokeWidth={2} />
          </AreaChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure title="Nouveaux clients" summary={`${formatNumber(sum(days, "newCustomers"))} sur la période`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
            {grid}
            {xAxis}
            {yAxis}
            {tooltip}
            <Bar dataKey="newCustomers" name="Nouveaux clients" fill={BRAND} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
      <ChartFigure title="Récompenses utilisées" summary={`${formatNumber(sum(days, "redemptions"))} sur la période`}>
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} margin={{ top: 4, right: 4, left: 0, bottom: 0 }}>
            {grid}
            {xAxis}
            {yAxis}
            {tooltip}
            <Bar dataKey="redemptions" name="Récompenses" fill={ACCENT} radius={[3, 3, 0, 0]} />
          </BarChart>
        </ResponsiveContainer>
      </ChartFigure>
    </div>
  );
}
