import { useQuery } from "@tanstack/react-query";
import { formatDateTime, formatNumber, plural } from "../../../../domain/format.ts";
import { type Campaign, campaignsQueryOptions, useCampaignAction } from "../api/newsletter.ts";
import { LoadError } from "../../../components/errors/load-error.tsx";
import { Skeleton } from "../../../components/ui/skeleton.tsx";
import { SendControls } from "./send-controls.tsx";

function Figure({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl bg-stone-100 px-3 py-2 dark:bg-stone-800">
      <dt className="text-xs text-stone-600 dark:text-stone-400">{label}</dt>
      <dd className="text-lg font-semibold">{formatNumber(value)}</dd>
    </div>
  );
}

function CampaignItem({
  shopId,
  campaign,
  openTracking,
}: {
  shopId: string;
  campaign: Campaign;
  openTracking: boolean;
}) {
  const action = useCampaignAction(shopId);
  const { counts } = campaign;
  const when = campaign.status === "scheduled" ? campaign.scheduledAt : (campaign.startedAt ?? campaign.createdAt);
  const started = campaign.status !== "scheduled" && campaign.status !== "cancelled";
  return (
    <li
      className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm dark:border-stone-800 dark:bg-stone-900"
      data-testid="newsletter-campaign"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 className="break-words font-semibold">{campaign.subject}</h3>
          <p className="text-sm text-stone-600 dark:text-stone-400">
            {campaign.audienceLabel} · {when ? formatDateTime(when) : ""}
          </p>
        </div>
        <span className="rounded-full bg-brand-50 px-3 py-1 text-sm font-semibold text-brand-900 dark:bg-stone-800 dark:text-brand-100">
          {campaign.statusLabel}
        </span>
      </div>
      {campaign.status === "sending" || campaign.status === "paused" ? (
        <div className="mt-3">
          <div
            role="progressbar"
            aria-label={`Progression de l'envoi de « ${campaign.subject} »`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={campaign.progress}
            className="h-3 overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800"
          >
            <div className="h-full bg-brand-700 transition-all" style={{ width: `${campaign.progress}%` }} />
          </div>
          <p className="mt-1 text-sm">{`${formatNumber(campaign.progress)} % · ${plural(counts.pending, "e-mail restant", "e-mails restants")} sur ${formatNumber(counts.total)}`}</p>
        </div>
      ) : null}
      {started ? (
        <dl className="mt-3 grid grid-cols-2 gap-2 sm:grid-cols-4">
          <Figure label="Envoyés" value={counts.sent} />
          <Figure label="Échecs" value={counts.failed} />
          <Figure label="Rebonds" value={counts.bounced} />
          <Figure label="Désabonnements" value={counts.unsubscribed} />
          {openTracking ? <Figure label="Ouverts" value={counts.opened} /> : null}
        </dl>
      ) : null}
      {started && counts.skipped > 0 ? (
        <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
          {`${plural(counts.skipped, "e-mail non envoyé", "e-mails non envoyés")} : désabonnement ou adresse en échec depuis le début de l'envoi, ou envoi annulé.`}
        </p>
      ) : null}
      <SendControls
        status={campaign.status}
        pending={action.isPending}
        error={action.error}
        onAction={(a) => action.mutate({ id: campaign.id, action: a })}
      />
    </li>
  );
}

/** The shop's campaigns, newest first; the bar of one being sent moves (re-read every 2 s). */
export function NewsletterCampaigns({ shopId, openTracking }: { shopId: string; openTracking: boolean }) {
  const query = useQuery(campaignsQueryOptions(shopId));
  if (query.isPending) return <Skeleton blocks={1} />;
  if (query.error) return <LoadError error={query.error} />;
  if (query.data.length === 0)
    return <p className="text-stone-600 dark:text-stone-400">Aucune newsletter envoyée pour le moment.</p>;
  return (
    <ul className="flex flex-col gap-3">
      {query.data.map((c) => (
        <CampaignItem key={c.id} shopId={shopId} campaign={c} openTracking={openTracking} />
      ))}
    </ul>
  );
}
