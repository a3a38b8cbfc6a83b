import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "react-router";
import { type CardMode, formatAmount, formatDateTime, plural } from "../../../../domain/format.ts";
import { Section } from "../../../components/ui/section.tsx";
import { Button } from "../../../components/ui/button.tsx";
import { Notice } from "../../../components/ui/notice.tsx";
import { errorText } from "../../../lib/api-client.ts";
import { decideAdjustment, type FeedAdjustment, useAdjustments } from "../api/adjustments.ts";
import { cardsKeys } from "../api/keys.ts";
import { FlaggedItem } from "./flagged-item.tsx";

const signedAmount = (mode: CardMode, delta: number) => `${delta > 0 ? "+" : ""}${formatAmount(mode, delta)}`;

function StatusBadge({ item }: { item: FeedAdjustment }) {
  const tone =
    item.status === "pending"
      ? "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
      : item.status === "applied"
        ? "bg-emerald-100 text-emerald-900 dark:bg-emerald-950 dark:text-emerald-100"
        : "bg-stone-200 text-stone-800 dark:bg-stone-700 dark:text-stone-100";
  return (
    <span className={`inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>
      {item.statusLabel}
    </span>
  );
}

function CorrectionItem({ shopId, mode, item }: { shopId: string; mode: CardMode; item: FeedAdjustment }) {
  const queryClient = useQueryClient();
  const decide = useMutation({
    mutationFn: (verb: "approve" | "refuse") => decideAdjustment(shopId, item.id, verb),
    // Decided or refused (someone else decided first): the feed as it is now.
    onSettled: () => queryClient.invalidateQueries({ queryKey: cardsKeys.adjustments(shopId) }),
  });
  const busy = decide.isPending ? decide.variables : null;
  const flagged = item.alerts.length > 0;
  return (
    <FlaggedItem flagged={flagged} labels={item.alertLabels}>
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          {item.customer.id ? (
            <Link
              to={`/profile/${item.customer.id}`}
              className="block truncate font-semibold underline-offset-2 hover:underline"
            >
              {item.customer.name}
            </Link>
          ) : (
            <p className="truncate font-semibold">{item.customer.name}</p>
          )}
        </div>
        <span className="shrink-0 font-bold tabular-nums text-brand-800 dark:text-brand-200">
          {signedAmount(mode, item.delta)}
        </span>
      </div>
      <p className="mt-1 text-sm text-stone-700 dark:text-stone-300">« {item.reason} »</p>
      <div className="mt-2">
        <StatusBadge item={item} />
      </div>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-400">
        Par {item.author.name}
        {item.author.roleLabel ? ` (${item.author.roleLabel.toLowerCase()})` : ""} ·{" "}
        <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
        {item.countsLifetime ? " · compte aussi pour les niveaux VIP" : ""}
      </p>
      {item.decidedBy && item.status !== "pending" && item.decidedBy !== item.author.name ? (
        <p className="text-sm text-stone-600 dark:text-stone-400">
          {item.status === "applied" ? "Validée" : "Refusée"} par {item.decidedBy}
        </p>
      ) : null}
      {decide.isError ? (
        <div className="mt-2">
          <Notice tone="error">{errorText(decide.error, "La décision n'a pas été enregistrée. Réessayez.")}</Notice>
        </div>
      ) : null}
      {item.status === "pending" ? (
        <div className="mt-3 grid grid-cols-2 gap-2">
          <Button onClick={() => decide.mutate("approve")} isLoading={busy === "approve"} disabled={busy !== null}>
            Valider
          </Button>
          <Button
            variant="secondary"
            onClick={() => decide.mutate("refuse")}
            isLoading={busy === "refuse"}
            disabled={busy !== null}
          >
            Refuser
          </Button>
        </div>
      ) : null}
    </FlaggedItem>
  );
}

/**
 * The owner's feed of corrections (/admin/liste-scans): who corrected which customer, by how much and why; the
 * unusual ones flagged; the team's requests beyond the cap waiting for the owner's or a manager's word (ADR 0036).
 */
export function CorrectionsFeed({ shopId, mode }: { shopId: string; mode: CardMode }) {
  const feed = useAdjustments(shopId);
  const rules = feed.data?.rules;
  return (
    <Section
      title="Corrections de solde"
      id="corrections"
      lead={
        rules
          ? `L'équipe corrige seule jusqu'à ${formatAmount(mode, rules.cap)}, ${plural(rules.perDay, "fois", "fois")} par jour au plus ; au-delà, la correction attend votre accord ou celui d'une personne responsable. Réglage : Design de la carte.`
          : undefined
      }
    >
      {feed.isPending ? (
        <p className="mt-2 text-stone-600 dark:text-stone-400">Chargement…</p>
      ) : feed.isError ? (
        <div className="mt-2">
          <Notice tone="error">{errorText(feed.error, "Les corrections n'ont pas pu être chargées.")}</Notice>
        </div>
      ) : feed.data.adjustments.length === 0 ? (
        <p className="mt-2 text-stone-600 dark:text-stone-400">Aucune correction pour l'instant.</p>
      ) : (
        <>
          <p className="mt-2 font-semibold" aria-live="polite">
            {feed.data.pending === 0
              ? "Aucune correction en attente."
              : `${plural(feed.data.pending, "correction attend", "corrections attendent")} votre accord.`}
          </p>
          <ul className="mt-3 flex flex-col gap-2" aria-label="Corrections">
            {feed.data.adjustments.map((item) => (
              <CorrectionItem key={item.id} shopId={shopId} mode={mode} item={item} />
            ))}
          </ul>
        </>
      )}
    </Section>
  );
}
