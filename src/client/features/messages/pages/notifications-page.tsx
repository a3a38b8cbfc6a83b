import { useQuery } from "@tanstack/react-query";
import { Link } from "react-router";
import { formatMoment, plural } from "../../../../domain/format.ts";
import { ButtonLink } from "../../../components/ui/button.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { inboxQueryOptions } from "../api/get-inbox.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";

/** /notifications: every message received, newest first, unread ones marked. */
export default function NotificationsPage() {
  const query = useQuery(inboxQueryOptions());
  const unread = query.data?.unread ?? 0;
  return (
    <Page
      title="Notifications"
      lead={
        query.data
          ? unread > 0
            ? `${plural(unread, "message non lu", "messages non lus")}.`
            : "Tout est lu."
          : undefined
      }
    >
      {query.isPending ? <Skeleton blocks={1} /> : null}
      {query.error ? <LoadError error={query.error} /> : null}
      {query.data && query.data.messages.length === 0 ? (
        <div className="flex flex-col items-start gap-3">
          <p className="text-stone-700 dark:text-stone-300">
            Aucun message pour l'instant. Les boutiques dont vous avez la carte pourront vous écrire ici : nouveautés,
            promotions, récompenses.
          </p>
        </div>
      ) : null}
      {query.data && query.data.messages.length > 0 ? (
        <ul className="flex flex-col gap-2" aria-label="Messages reçus">
          {query.data.messages.map((m) => (
            <li key={m.id}>
              <Link
                to={`/messages/${m.id}`}
                data-testid="inbox-item"
                data-unread={m.isRead ? undefined : "true"}
                className={`flex gap-3 rounded-2xl border p-4 ${m.isRead ? "border-stone-200 bg-white dark:border-stone-800 dark:bg-stone-900" : "border-brand-300 bg-brand-50 dark:border-brand-800 dark:bg-stone-800"}`}
              >
                <span
                  aria-hidden="true"
                  className={`mt-1.5 size-2.5 shrink-0 rounded-full ${m.isRead ? "bg-transparent" : "bg-brand-700"}`}
                />
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline justify-between gap-2">
                    <span className="truncate text-sm font-semibold text-brand-800 dark:text-brand-200">
                      {m.shop?.name ?? "Fidèle"}
                    </span>
                    <span className="shrink-0 text-xs text-stone-600 dark:text-stone-400">
                      {formatMoment(m.sentAt)}
                    </span>
                  </span>
                  <span className={`block ${m.isRead ? "font-medium" : "font-bold"}`}>
                    {m.isRead ? null : <span className="sr-only">Non lu : </span>}
                    {m.title}
                  </span>
                  <span className="line-clamp-2 block text-sm text-stone-700 dark:text-stone-300">{m.body}</span>
                </span>
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
      <ButtonLink to="/notif" variant="secondary">
        Choisir ce que je reçois
      </ButtonLink>
    </Page>
  );
}
