import { formatLocalDate, formatLocalDateShort, formatNumber, plural } from "../../../../domain/format.ts";
import { BarChart, type ChartPoint } from "../../../components/charts/bar-chart.tsx";
import type { Dashboard } from "../api/get-dashboard.ts";

type Day = Dashboard["days"][number];

const sum = (days: readonly Day[], key: keyof Omit<Day, "date">) => days.reduce((s, d) => s + d[key], 0);
const column = (days: readonly Day[], key: keyof Omit<Day, "date">) => days.map((d) => d[key]);

/** The dashboard's four charts over the period: passages (credited and refused), points or stamps, newcomers, rewards. */
export function DashboardCharts({ days, mode }: { days: readonly Day[]; mode: "stamps" | "points" }) {
  const points: ChartPoint[] = days.map((d) => ({
    key: d.date,
    label: formatLocalDate(d.date),
    tick: formatLocalDateShort(d.date),
  }));
  const unit = mode === "stamps" ? "Tampons" : "Points";
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <BarChart
        title="Passages par jour"
        summary={`${plural(sum(days, "scans"), "crédité", "crédités")}, ${plural(sum(days, "refused"), "refusé", "refusés")}`}
        points={points}
        series={[
          { label: "Crédités", values: column(days, "scans") },
          { label: "Refusés", values: column(days, "refused"), tone: "muted" },
        ]}
      />
      <BarChart
        title={`${unit} distribués`}
        summary={`${formatNumber(sum(days, "points"))} sur la période`}
        points={points}
        series={[{ label: unit, values: column(days, "points") }]}
        kind="area"
      />
      <BarChart
        title="Nouveaux clients"
        summary={`${formatNumber(sum(days, "newCustomers"))} sur la période`}
        points={points}
        series={[{ label: "Nouveaux clients", values: column(days, "newCustomers") }]}
      />
      <BarChart
        title="Récompenses utilisées"
        summary={`${formatNumber(sum(days, "redemptions"))} sur la période`}
        points={points}
        series={[{ label: "Récompenses", values: column(days, "redemptions"), tone: "accent" }]}
      />
    </div>
  );
}
