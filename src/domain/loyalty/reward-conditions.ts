import { formatLocalDate } from "../format.ts";
import { unitLabelFr } from "./rewards.ts";
import type { CardMode } from "./scan-rules.ts";

/** What the conditions under a reward are worded from: the reward's rules (saved, or typed in the owner's form). */
type RewardConditionRules = {
  cost: number;
  stock: number | null;
  perCustomerLimit: number | null;
  kind: "repeatable" | "ladder";
  validFrom: string | null;
  validUntil: string | null;
};

/**
 * The conditions listed under a reward, in French: the one wording of the shopper's reward pages and of the live
 * preview in the owner's form (the server's reward DTO should word them here too).
 */
export function rewardConditionsFr(r: RewardConditionRules, mode: CardMode): string[] {
  const out = [`Coûte ${unitLabelFr(mode, r.cost)}.`];
  if (r.kind === "ladder") out.push("Une seule fois par client.");
  else if (r.perCustomerLimit !== null) out.push(`Au plus ${r.perCustomerLimit} fois par client.`);
  if (r.stock !== null) out.push(r.stock > 0 ? `Encore ${r.stock} disponible${r.stock > 1 ? "s" : ""}.` : "Épuisée.");
  if (r.validFrom && r.validUntil)
    out.push(`Valable du ${formatLocalDate(r.validFrom)} au ${formatLocalDate(r.validUntil)}.`);
  else if (r.validFrom) out.push(`Valable à partir du ${formatLocalDate(r.validFrom)}.`);
  else if (r.validUntil) out.push(`Valable jusqu'au ${formatLocalDate(r.validUntil)}.`);
  return out;
}
