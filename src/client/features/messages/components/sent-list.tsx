import { useQuery } from "@tanstack/react-query";
import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import type { SenderScope } from "../api/composer.ts";
import { type SentMessage, sentQueryOptions, useSentAction } from "../api/sent.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { SendControls } from "./send-controls.tsx";

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl bg-stone-100 px-3 py-2 dark:bg-stone-800">
      <dt className="text-xs text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="text-lg font-semibold">{formatNumber(value)}</dd>
    </div>
  );
}

function SentItem({ message, scope }: { message: SentMessage; scope: SenderScope }) {
  const action = useSentAction(scope);
  const { counts } = message;
  const when = message.status === "scheduled" ? message.scheduledAt : (message.startedAt ?? message.createdAt);
  return (
    <li
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900"
      data-testid="sent-message"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="font-semibold">{message.title}</h3>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {message.audienceLabel} · {when ? formatDateTime(when) : ""}
          </p>
        </div>
        <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-900 dark:bg-stone-800 dark:text-brand-100">
          {message.statusLabel}
        </span>
      </div>
      {message.status === "sending" || message.status === "paused" ? (
        <div className="mt-3">
          <div
            role="progressbar"
            aria-label={`Progression de l'envoi de « ${message.title} »`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={message.progress}
            className="h-3 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
          >
            <div className="h-full bg-brand-700 transition-all" style={{ width: `${message.progress}%` }} />
          </div>
          <p className="mt-1 text-sm">{`${formatNumber(message.progress)} % · ${plural(counts.pending, "envoi restant", "envois restants")}`}</p>
        </div>
      ) : null}
      {message.status !== "scheduled" && message.status !== "cancelled" ? (
        <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Count label="Remis" value={counts.delivered} />
          <Count label="Lus" value={counts.read} />
          <Count label="Cliqués" value={counts.clicked} />
          <Count label="Échecs" value={counts.failed} />
        </dl>
      ) : null}
      {message.status !== "scheduled" && message.status !== "cancelled" && message.withPush ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          {`${plural(counts.pushDelivered, "notification push remise", "notifications push remises")}, ${plural(counts.skipped, "non envoyée", "non envoyées")} (limite de fréquence, appareil absent ou envoi annulé).`}
        </p>
      ) : null}
      {message.sms && message.status !== "scheduled" && message.status !== "cancelled" ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400" data-testid="sent-sms">
          {plural(message.sms.delivered, "SMS envoyé", "SMS envoyés")}
          {message.sms.waiting > 0 && message.sms.nextAt
            ? `, ${plural(message.sms.waiting, "en attente", "en attente")} de l'horaire autorisé : départ le ${formatDateTime(message.sms.nextAt)}.`
            : "."}
        </p>
      ) : null}
      <SendControls
        status={message.status}
        pending={action.isPending}
        error={action.error}
        onAction={(a) => action.mutate({ id: message.id, action: a })}
      />
    </li>
  );
}

/** Sent and scheduled messages with their counts; the bar of a sending one moves as it goes. */
export function SentList({ scope }: { scope: SenderScope }) {
  const query = useQuery(sentQueryOptions(scope));
  if (query.isPending) return <Skeleton blocks={1} />;
  if (query.error) return <LoadError error={query.error} />;
  if (query.data.length === 0)
    return <p className="text-stone-600 dark:text-stone-400">Aucun message envoyé pour le moment.</p>;
  return (
    <ul className="flex flex-col gap-3">
      {query.data.map((m) => (
        <SentItem key={m.id} message={m} scope={scope} />
      ))}
    </ul>
  );
}
