import { formatLocalDayMonth, formatNumber } from "../../../../domain/format.ts";

/**
 * A 30-day bar chart in plain SVG (no chart library for one small figure), with its numbers in a table for
 * screen readers: the image is decorative, the table says the same.
 */
export function DailyBars({ title, points }: { title: string; points: { date: string; value: number }[] }) {
  const max = Math.max(1, ...points.map((p) => p.value));
  const width = 300;
  const height = 80;
  const step = width / Math.max(1, points.length);
  const total = points.reduce((sum, p) => sum + p.value, 0);
  return (
    <figure className="rounded-2xl border border-stone-200 bg-white p-4 dark:border-stone-800 dark:bg-stone-900">
      <figcaption className="text-sm font-medium text-stone-700 dark:text-stone-300">
        {title} : {formatNumber(total)}
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="mt-2 h-20 w-full"
        aria-hidden="true"
        preserveAspectRatio="none"
      >
        {points.map((p, i) => {
          const h = (p.value / max) * (height - 2);
          return (
            <rect
              key={p.date}
              x={i * step + 1}
              y={height - h}
              width={Math.max(1, step - 2)}
              height={h}
              className="fill-brand-600 dark:fill-brand-300"
            />
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{title}, jour par jour</caption>
        <tbody>
          {points.map((p) => (
            <tr key={p.date}>
              <th scope="row">{formatLocalDayMonth(p.date)}</th>
              <td>{formatNumber(p.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
