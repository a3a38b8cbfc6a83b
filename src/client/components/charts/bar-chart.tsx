import { type PointerEvent, useState } from "react";
import { formatNumber } from "../../../domain/format.ts";

/*
 * The one way the app draws a chart (ADR 0042): plain SVG for the bars and the area, HTML for every word and
 * number (crisp at any width, in the page's font), and a table of the same figures for screen readers. A few
 * kilobytes instead of a chart library's hundred; nothing to load before the figures show.
 */

type ChartTone = "brand" | "muted" | "accent";

/** One series of values, in the order of the points; several series are stacked. */
type ChartSeries = { label: string; values: readonly number[]; tone?: ChartTone };

/** A point of the horizontal axis: its full name (the table, the readout) and its short one (the axis). */
export type ChartPoint = { key: string; label: string; tick: string };

const FILL: Record<ChartTone, string> = {
  brand: "fill-brand-700 dark:fill-brand-400",
  muted: "fill-stone-400 dark:fill-stone-500",
  accent: "fill-amber-600 dark:fill-amber-400",
};
const SWATCH: Record<ChartTone, string> = {
  brand: "bg-brand-700 dark:bg-brand-400",
  muted: "bg-stone-400 dark:bg-stone-500",
  accent: "bg-amber-600 dark:bg-amber-400",
};

/** The top of the scale: a round number at or above the highest value, whose half is whole too (0, 2, 4…). */
export function niceMax(max: number): number {
  if (max <= 2) return 2;
  const magnitude = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 4, 5, 6, 8, 10]) {
    const top = step * magnitude;
    if (top >= max && (top / 2) % 1 === 0) return top;
  }
  return 10 * magnitude;
}

/** Which points get a label on the axis: about `wanted`, evenly spread, the first and the last always. */
export function tickIndexes(count: number, wanted = 5): number[] {
  if (count <= wanted) return Array.from({ length: count }, (_, i) => i);
  const step = Math.ceil((count - 1) / (wanted - 1));
  const picked: number[] = [];
  // The last label (aligned on the right edge, so reaching left) takes the place of one that would crowd it.
  for (let i = 0; count - 1 - i >= step || i === 0; i += step) picked.push(i);
  return [...picked, count - 1];
}

/**
 * A titled chart of values over days or weeks: bars (stacked when several series) or an area. Touching or hovering
 * the plot reads one point out above it. `compact`: a small figure (the console's), its top value and first and
 * last dates only.
 */
export function BarChart({
  title,
  summary,
  points,
  series,
  kind = "bars",
  compact = false,
}: {
  title: string;
  /** One line under the title (the period's total); a touched point's figures take its place. */
  summary?: string;
  points: readonly ChartPoint[];
  series: readonly ChartSeries[];
  kind?: "bars" | "area";
  compact?: boolean;
}) {
  const [selected, setSelected] = useState<number | null>(null);
  const n = Math.max(1, points.length);
  const totals = points.map((_, i) => series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0));
  const top = niceMax(Math.max(0, ...totals));
  // The plot's own units: one per point across, 100 up; stretched to the box (the strokes do not scale).
  const y = (value: number) => 100 - (value / top) * 100;
  const gap = n > 40 ? 0.15 : 0.25;
  const ticks = tickIndexes(points.length, compact ? 2 : 5);
  const pick = (event: PointerEvent<SVGSVGElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    const i = Math.floor(((event.clientX - box.left) / box.width) * n);
    setSelected(i >= 0 && i < points.length ? i : null);
  };
  const readout =
    selected === null
      ? null
      : `${points[selected]?.label} : ${series.map((s) => `${formatNumber(s.values[selected] ?? 0)}${series.length > 1 ? ` ${s.label.toLowerCase()}` : ""}`).join(", ")}`;
  const height = compact ? "h-20" : "h-40";

  return (
    <figure
      data-chart
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900"
    >
      <figcaption>
        <span className="block font-semibold">{title}</span>
        <span
          className="block min-h-5 text-sm text-stone-600 dark:text-stone-400"
          aria-hidden={readout ? true : undefined}
        >
          {readout ?? summary}
        </span>
        {readout && summary ? <span className="sr-only">{summary}</span> : null}
      </figcaption>
      <div className="mt-3 flex gap-2" aria-hidden="true">
        <div
          className={`flex ${height} w-7 shrink-0 flex-col justify-between text-right text-xs leading-none tabular-nums text-stone-600 dark:text-stone-400`}
        >
          <span className="-mt-1.5">{formatNumber(top)}</span>
          {compact ? null : <span>{formatNumber(top / 2)}</span>}
          <span className="-mb-1.5">0</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg
            aria-hidden="true"
            viewBox={`0 0 ${n} 100`}
            preserveAspectRatio="none"
            className={`${height} w-full touch-pan-y overflow-visible`}
            onPointerDown={pick}
            onPointerMove={pick}
            onPointerLeave={() => setSelected(null)}
          >
            {[0, 50, 100].map((at) => (
              <line
                key={at}
                x1={0}
                x2={n}
                y1={at}
                y2={at}
                vectorEffect="non-scaling-stroke"
                strokeDasharray={at === 100 ? undefined : "3 3"}
                className="stroke-stone-200 dark:stroke-stone-700"
              />
            ))}
            {selected !== null ? (
              <rect x={selected} y={0} width={1} height={100} className="fill-stone-100 dark:fill-stone-800" />
            ) : null}
            {kind === "area" ? <Area values={series[0]?.values ?? []} y={y} tone={series[0]?.tone ?? "brand"} /> : null}
            {kind === "bars"
              ? points.map((point, i) => {
                  let base = 0;
                  return series.map((s) => {
                    const value = s.values[i] ?? 0;
                    const from = base;
                    base += value;
                    return value > 0 ? (
                      <rect
                        key={`${point.key}-${s.label}`}
                        x={i + gap / 2}
                        width={1 - gap}
                        y={y(from + value)}
                        height={y(from) - y(from + value)}
                        className={FILL[s.tone ?? "brand"]}
                      />
                    ) : null;
                  });
                })
              : null}
          </svg>
          <div className="relative mt-1.5 h-4 text-xs text-stone-600 dark:text-stone-400">
            {ticks.map((i) => (
              <span
                key={points[i]?.key ?? i}
                className="absolute whitespace-nowrap"
                style={
                  i === 0
                    ? { left: 0 }
                    : i === points.length - 1
                      ? { right: 0 }
                      : { left: `${((i + 0.5) / n) * 100}%`, transform: "translateX(-50%)" }
                }
              >
                {points[i]?.tick}
              </span>
            ))}
          </div>
        </div>
      </div>
      {series.length > 1 ? (
        <ul
          className="mt-3 flex flex-wrap justify-center gap-x-4 gap-y-1 text-xs text-stone-700 dark:text-stone-300"
          aria-hidden="true"
        >
          {series.map((s) => (
            <li key={s.label} className="flex items-center gap-1.5">
              <span className={`size-2.5 rounded-sm ${SWATCH[s.tone ?? "brand"]}`} />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      {/* In a box of its own: a table is never narrower than its content, so hidden alone it would widen the page. */}
      <div className="sr-only">
        <table>
          {/* The figure's caption names it already: this one says what the table adds. */}
          <caption>Le détail, point par point</caption>
          <thead>
            <tr>
              <th scope="col">Période</th>
              {series.map((s) => (
                <th key={s.label} scope="col">
                  {s.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((point, i) => (
              <tr key={point.key}>
                <th scope="row">{point.label}</th>
                {series.map((s) => (
                  <td key={s.label}>{formatNumber(s.values[i] ?? 0)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

/** The area under a line through each point's middle. */
function Area({ values, y, tone }: { values: readonly number[]; y: (value: number) => number; tone: ChartTone }) {
  if (values.length === 0) return null;
  const line = values.map((v, i) => `${i === 0 ? "M" : "L"}${i + 0.5} ${y(v)}`).join(" ");
  const last = values.length - 0.5;
  return (
    <>
      <path d={`${line} L${last} 100 L0.5 100 Z`} className={`${FILL[tone]} opacity-25`} />
      <path
        d={line}
        fill="none"
        strokeWidth={2}
        strokeLinejoin="round"
        vectorEffect="non-scaling-stroke"
        className={
          tone === "accent" ? "stroke-amber-600 dark:stroke-amber-400" : "stroke-brand-700 dark:stroke-brand-400"
        }
      />
    </>
  );
}
