import { type CardMode, formatAmount, formatSigned, plural } from "../format.ts";
import type { LedgerKind } from "./ledger.ts";

/**
 * Corrections of a card's balance by the shop (issue 22, row 17; ADR 0036). Who may do what:
 * - owner ("owner") and manager ("admin"), and the platform admin: correct any amount at once (their own card
 *   excepted), see every correction in the feed, approve or refuse a team member's request;
 * - team member ("member", « Membre de l'équipe »): corrects at once within the cap — at most `cap` points either way, at
 *   most `perDay` corrections a day at this shop —, beyond it the correction waits for an owner or a manager;
 * - nobody corrects their own card, nor approves a correction of their own card or their own request.
 * A team member's correction moves the lifetime total (VIP levels) only when the owner allows it.
 */

type AdjustmentRole = "owner" | "admin" | "member" | "platform";

export const ADJUSTMENT_STATUSES = ["applied", "pending", "refused"] as const;
export type AdjustmentStatus = (typeof ADJUSTMENT_STATUSES)[number];

export const ADJUSTMENT_STATUS_LABELS_FR: Record<AdjustmentStatus, string> = {
  applied: "Appliquée",
  pending: "En attente de validation",
  refused: "Refusée",
};

/**
 * What makes a correction unusual, whoever made it:
 * - over_cap: more than the team's cap, either way;
 * - many_today: beyond the day's count of the team's cap, for its author at this shop (this one included);
 * - team_card: the card of someone on the shop's team (a colleague's card; their own is refused outright).
 */
export const ADJUSTMENT_ALERTS = ["over_cap", "many_today", "team_card"] as const;
export type AdjustmentAlert = (typeof ADJUSTMENT_ALERTS)[number];

export function adjustmentAlertLabelFr(
  alert: AdjustmentAlert,
  rules: { cap: number; perDay: number; mode: CardMode },
): string {
  switch (alert) {
    case "over_cap":
      return `au-delà du plafond de l'équipe (${formatAmount(rules.mode, rules.cap)})`;
    case "many_today":
      return `plus de ${plural(rules.perDay, "correction", "corrections")} dans la journée par la même personne`;
    case "team_card":
      return "carte d'un membre de l'équipe";
  }
}

/** The owner's settings, as the shop row holds them. */
export type AdjustmentRules = {
  cardMode: "stamps" | "points";
  pointsPerVisit: number;
  /** The team's cap for one correction; null: a visit's worth. */
  adjustmentLimit: number | null;
  staffAdjustmentsPerDay: number;
  staffAdjustmentsLifetime: boolean;
};

/** A visit's worth: 1 stamp, or the card's points per visit. */
export function adjustmentCap(rules: Pick<AdjustmentRules, "cardMode" | "pointsPerVisit" | "adjustmentLimit">): number {
  return rules.adjustmentLimit ?? (rules.cardMode === "stamps" ? 1 : rules.pointsPerVisit);
}

type AdjustmentDecision = {
  status: "applied" | "pending";
  /** The ledger kind once applied: whether the lifetime total moves too. */
  kind: Extract<LedgerKind, "adjustment" | "adjustment_balance">;
  alerts: AdjustmentAlert[];
};

/**
 * How a new correction goes. `earlierToday`: the corrections its author already made or asked at this shop today
 * (the shop's day), whatever became of them.
 */
export function decideAdjustment(input: {
  role: AdjustmentRole;
  delta: number;
  earlierToday: number;
  isTeamCard: boolean;
  rules: AdjustmentRules;
}): AdjustmentDecision {
  const cap = adjustmentCap(input.rules);
  const overCap = Math.abs(input.delta) > cap;
  const overCount = input.earlierToday >= input.rules.staffAdjustmentsPerDay;
  const isMember = input.role === "member";
  const alerts: AdjustmentAlert[] = [];
  if (overCap) alerts.push("over_cap");
  if (overCount) alerts.push("many_today");
  if (input.isTeamCard) alerts.push("team_card");
  return {
    status: isMember && (overCap || overCount) ? "pending" : "applied",
    kind: isMember && !input.rules.staffAdjustmentsLifetime ? "adjustment_balance" : "adjustment",
    alerts,
  };
}

/** What the author of a correction reads once it is sent: applied, or waiting for the owner or a manager. */
export function adjustmentOutcomeFr(status: AdjustmentStatus, delta: number): string {
  return status === "pending"
    ? `Correction de ${formatSigned(delta)} envoyée pour accord : elle dépasse ce que l'équipe peut corriger seule, la boutique (propriétaire ou responsable) doit la valider.`
    : `Correction de ${formatSigned(delta)} enregistrée.`;
}
