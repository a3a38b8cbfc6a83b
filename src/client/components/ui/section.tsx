import type { ReactNode } from "react";

const CARD =
  "rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-5 dark:border-stone-800 dark:bg-stone-900";

/**
 * A titled card of a page, named by its heading (a landmark for screen readers). `id` makes it a link target
 * (#affiche); `actions` sit beside the title; `icon` and `badge` go before and under it. `bare`: the heading and its
 * content without the card, for a list whose items are cards themselves. `stack`: its children one under the other,
 * evenly spaced.
 */
export function Section({
  title,
  lead,
  children,
  id,
  actions,
  icon,
  badge,
  bare = false,
  stack = false,
  className = "",
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
  id?: string;
  actions?: ReactNode;
  icon?: ReactNode;
  badge?: ReactNode;
  bare?: boolean;
  stack?: boolean;
  className?: string;
}) {
  const headingId = `${id ?? title.replace(/\W+/g, "-").toLowerCase()}-title`;
  return (
    <section id={id} aria-labelledby={headingId} className={`scroll-mt-20 ${bare ? "" : CARD} ${className}`}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-1 items-center gap-3">
          {icon ? (
            <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
              {icon}
            </span>
          ) : null}
          <div className="flex min-w-0 flex-col items-start gap-0.5">
            <h2 id={headingId} className="text-lg font-semibold leading-tight">
              {title}
            </h2>
            {badge}
          </div>
        </div>
        {actions}
      </div>
      {lead ? <p className="mt-1 text-sm text-stone-600 dark:text-stone-400">{lead}</p> : null}
      <div className={`${bare ? "mt-3" : "mt-4"} ${stack ? "flex flex-col gap-4" : ""}`}>{children}</div>
    </section>
  );
}
