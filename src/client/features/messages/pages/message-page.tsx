import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { Link, useParams, useSearchParams } from "react-router";
import { formatDateTime } from "../../../../domain/format.ts";
import { linkTarget } from "../../../../domain/schemas/links.ts";
import { ErrorView } from "../../../components/errors/error-view.tsx";
import { buttonClass, ButtonLink } from "../../../components/ui/button.tsx";
import { Page } from "../../../components/ui/page.tsx";
import { ApiError } from "../../../lib/api-client.ts";
import { markClicked, messageQueryOptions, useMarkRead } from "../api/get-message.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";

/** /messages/{id}: one message; opening it marks it read. Someone else's message is a 404. */
export default function MessagePage() {
  const { id = "" } = useParams();
  const [params] = useSearchParams();
  const query = useQuery(messageQueryOptions(id));
  const markRead = useMarkRead();
  const marked = useRef<string | null>(null);

  useEffect(() => {
    if (!query.data || marked.current === id) return;
    marked.current = id;
    markRead.mutate(id);
    // Opened from its notification: that tap counts as a click.
    if (params.get("from") === "push") void markClicked(id);
  }, [query.data, id, params, markRead]);

  if (query.isPending)
    return (
      <Page title="Message">
        <Skeleton blocks={1} />
      </Page>
    );
  if (query.error) {
    if (query.error instanceof ApiError && (query.error.status === 404 || query.error.status === 400)) {
      return (
        <ErrorView
          status={404}
          title="Message introuvable"
          message="Ce message n'existe pas ou ne vous est pas adressé."
        />
      );
    }
    return (
      <Page title="Message">
        <LoadError error={query.error} />
      </Page>
    );
  }
  const m = query.data;
  const link = linkTarget(m.linkUrl);
  return (
    <Page title={m.title}>
      <p className="-mt-3 text-sm text-stone-600 dark:text-stone-400">
        {m.shop ? (
          <Link to={`/shop/${m.shop.slug}`} className="font-semibold text-brand-800 underline dark:text-brand-200">
            {m.shop.name}
          </Link>
        ) : (
          <span className="font-semibold">Fidèle</span>
        )}{" "}
        · <time dateTime={new Date(m.sentAt).toISOString()}>{formatDateTime(m.sentAt)}</time>
      </p>
      {m.imageUrl ? <img src={m.imageUrl} alt="" className="max-h-72 w-full rounded-2xl object-cover" /> : null}
      <p className="whitespace-pre-line text-base leading-relaxed">{m.body}</p>
      {link ? (
        link.external ? (
          <a
            href={link.href}
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClass("primary")}
            onClick={() => void markClicked(id)}
          >
            Ouvrir le lien
          </a>
        ) : (
          <ButtonLink to={link.href} onClick={() => void markClicked(id)}>
            Ouvrir le lien
          </ButtonLink>
        )
      ) : null}
      <ButtonLink to="/notifications" variant="secondary">
        Toutes mes notifications
      </ButtonLink>
    </Page>
  );
}
