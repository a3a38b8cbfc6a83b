import { unitLabelFr } from "../../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../../domain/loyalty/scan-rules.ts";
import { formatLocalDate } from "../../../../domain/format.ts";

const fmt = formatLocalDate;

export type RewardDraftRules = {
  cost: number;
  stock: number | null;
  perCustomerLimit: number | null;
  kind: "repeatable" | "ladder";
  validFrom: string | null;
  validUntil: string | null;
};

/**
 * The conditions listed under a reward, worded as the API words them for shoppers (rewardConditionsFr on the
 * server), for the live preview of the owner's form before it is saved.
 */
export function draftConditionsFr(r: RewardDraftRules, mode: CardMode): string[] {
  const out = [`Coûte ${unitLabelFr(mode, r.cost)}.`];
  if (r.kind === "ladder") out.push("Une seule fois par client.");
  else if (r.perCustomerLimit !== null) out.push(`Au plus ${r.perCustomerLimit} fois par client.`);
  if (r.stock !== null) out.push(r.stock > 0 ? `Encore ${r.stock} disponible${r.stock > 1 ? "s" : ""}.` : "Épuisée.");
  if (r.validFrom && r.validUntil) out.push(`Valable du ${fmt(r.validFrom)} au ${fmt(r.validUntil)}.`);
  else if (r.validFrom) out.push(`Valable à partir du ${fmt(r.validFrom)}.`);
  else if (r.validUntil) out.push(`Valable jusqu'au ${fmt(r.validUntil)}.`);
  return out;
}
