import { Link } from "react-router";
import { PathIcon } from "../icons.tsx";
import { menuFor } from "./menu.ts";

/** Shown by the dashboard itself (itself, and its counter buttons above the tiles). */
const ON_THE_DASHBOARD = new Set<string>(["/admin", "/manager", "/reader"]);

/** The owner's menu as tiles on the dashboard, by group (the admin bar's drawer lists the same entries). */
export function BackOfficeTiles() {
  const groups = menuFor(["owner"])
    .map((group) => ({ ...group, links: group.links.filter((link) => !ON_THE_DASHBOARD.has(link.to)) }))
    .filter((group) => group.links.length > 0);
  return (
    <div className="flex flex-col gap-5">
      {groups.map((group) => (
        <section key={group.title} aria-label={group.title}>
          <h3 className="mb-2 text-xs font-semibold uppercase tracking-wide text-stone-500 dark:text-stone-400">
            {group.title}
          </h3>
          <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {group.links.map((link) => (
              <li key={link.to}>
                <Link
                  to={link.to}
                  className="flex h-full flex-col gap-2 rounded-2xl border border-stone-200 bg-white p-4 shadow-sm transition hover:border-brand-500 dark:border-stone-800 dark:bg-stone-900"
                >
                  <span className="flex size-10 items-center justify-center rounded-xl bg-brand-50 text-brand-800 dark:bg-stone-800 dark:text-brand-200">
                    <PathIcon d={link.icon} className="size-5" />
                  </span>
                  <span className="font-semibold text-stone-900 dark:text-stone-100">{link.label}</span>
                  <span className="text-sm leading-snug text-stone-600 dark:text-stone-400">{link.text}</span>
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ))}
    </div>
  );
}
