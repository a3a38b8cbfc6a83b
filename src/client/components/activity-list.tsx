import { infiniteQueryOptions, useInfiniteQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { ADJUSTMENT_KINDS } from "../../domain/loyalty/ledger.ts";
import { api, unwrap } from "../lib/api-client.ts";
import { Glyph } from "./loyalty/glyph.tsx";
import { Notice } from "./ui/notice.tsx";
import { formatAmount, formatMoment } from "../../domain/format.ts";
import { MoreButton } from "./ui/more-button.tsx";

/** GET /api/cards/activity: my ledger across shops, newest first, paged by `nextBefore`. */
const getActivityPage = (limit: number, before: string | undefined) =>
  unwrap(api.cards.activity.$get({ query: { limit: String(limit), ...(before ? { before } : {}) } }));

const activityQueryOptions = (limit: number) =>
  infiniteQueryOptions({
    queryKey: ["cards", "activity", limit],
    queryFn: ({ pageParam }) => getActivityPage(limit, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextBefore ?? undefined,
  });

type Entry = Awaited<ReturnType<typeof getActivityPage>>["entries"][number];

function EntryRow({ entry }: { entry: Entry }) {
  const isGain = entry.delta > 0;
  // A reward handed over at the counter moves no points (delta 0): it says so instead of "+0".
  const isHandover = entry.kind === "validation";
  return (
    <li className="flex items-center gap-3 py-3">
      <span
        className={`flex size-10 shrink-0 items-center justify-center rounded-full ${
          isGain
            ? "bg-emerald-100 text-emerald-800 dark:bg-emerald-950 dark:text-emerald-200"
            : "bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-200"
        }`}
        aria-hidden="true"
      >
        <Glyph
          name={
            entry.kind === "redemption" || isHandover
              ? "sparkle"
              : ADJUSTMENT_KINDS.includes(entry.kind)
                ? "list"
                : "check"
          }
          className="size-5"
        />
      </span>
      <div className="min-w-0 flex-1">
        {/* The whole name and the date, on two lines if need be: a narrow phone cut both (issue 12). */}
        <p className="line-clamp-2 break-words font-semibold">
          <Link to={`/shop/${entry.shop.slug}`} className="hover:underline">
            {entry.shop.name}
          </Link>
        </p>
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {entry.kindLabel} · <span className="whitespace-nowrap">{formatMoment(entry.createdAt)}</span>
        </p>
        {entry.reason ? <p className="text-sm text-stone-600 italic dark:text-stone-400">« {entry.reason} »</p> : null}
      </div>
      {isHandover ? (
        <span className="shrink-0 rounded-full bg-emerald-100 px-2.5 py-1 text-xs font-bold text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100">
          Remise
        </span>
      ) : (
        <span
          className={`shrink-0 font-bold tabular-nums ${isGain ? "text-emerald-800 dark:text-emerald-300" : "text-stone-800 dark:text-stone-200"}`}
        >
          {isGain ? "+" : "−"}
          {formatAmount(entry.mode, Math.abs(entry.delta))}
        </span>
      )}
    </li>
  );
}

/**
 * "Mon activité": the signed-in shopper's recent ledger entries (visits, bonuses, rewards, corrections) across
 * all shops, with "Voir plus". Meant for /dashboard.
 */
export function ActivityList({ title = "Mon activité récente", pageSize = 10 }: { title?: string; pageSize?: number }) {
  const activity = useInfiniteQuery(activityQueryOptions(pageSize));
  const entries = activity.data?.pages.flatMap((p) => p.entries) ?? [];
  return (
    <section
      aria-labelledby="activity-title"
      className="rounded-2xl border border-stone-200 bg-white p-5 shadow-sm dark:border-stone-800 dark:bg-stone-900"
    >
      <h2 id="activity-title" className="text-lg font-semibold">
        {title}
      </h2>
      {activity.isError ? (
        <div className="mt-3">
          <Notice tone="error">{activity.error.message}</Notice>
        </div>
      ) : activity.isPending ? (
        <p className="mt-3 text-sm text-stone-600 dark:text-stone-400" aria-busy="true">
          Chargement de votre activité…
        </p>
      ) : entries.length === 0 ? (
        <p className="mt-2 text-sm text-stone-700 dark:text-stone-300">
          Aucune activité pour l'instant. Vos passages en boutique, vos récompenses et les corrections des boutiques
          apparaîtront ici.
        </p>
      ) : (
        <>
          <ul className="mt-1 divide-y divide-stone-100 dark:divide-stone-800">
            {entries.map((entry) => (
              <EntryRow key={entry.id} entry={entry} />
            ))}
          </ul>
          <MoreButton pages={activity} look="link" />
        </>
      )}
    </section>
  );
}
