/**
 * The points ledger: every change of a card's points is one append-only entry.
 * A card's balance is the sum of all deltas; its lifetime total (what VIP levels
 * use) counts only what was earned, so spending, expiry and refunds of spent
 * points never move it. A `validation` entry moves nothing (delta 0): it records
 * which staff member handed a reward over.
 */
export const LEDGER_KINDS = [
  "scan",
  "bonus",
  "double_points",
  "redemption",
  "refund",
  "adjustment",
  "adjustment_balance",
  "expiry",
  "validation",
  "import",
  "referral",
] as const;
export type LedgerKind = (typeof LEDGER_KINDS)[number];

/**
 * A correction by the shop: `adjustment` moves the balance and the lifetime total, `adjustment_balance` the balance
 * only (a team member's correction while the owner keeps VIP levels out of their reach, ADR 0036).
 */
export const ADJUSTMENT_KINDS: readonly LedgerKind[] = ["adjustment", "adjustment_balance"];

/** Kinds that count toward the lifetime total. */
export const LIFETIME_KINDS: readonly LedgerKind[] = ["scan", "bonus", "double_points", "adjustment"];

export const LEDGER_KIND_LABELS_FR: Record<LedgerKind, string> = {
  scan: "Passage en boutique",
  bonus: "Bonus",
  // Words without the card's unit: a stamp card never reads « points » (issue 25 row 13).
  double_points: "Passage multiplié",
  redemption: "Récompense utilisée",
  refund: "Solde rendu",
  adjustment: "Correction par la boutique",
  adjustment_balance: "Correction par la boutique",
  expiry: "Solde expiré",
  validation: "Récompense remise en boutique",
  // A balance brought from the shop's former cards, claimed by its holder (ADR 0049): not earned here, so not lifetime.
  import: "Solde repris de l'ancienne carte",
  referral: "Parrainage",
};

type LedgerLike = { kind: LedgerKind; delta: number };

export function summarizeLedger(entries: readonly LedgerLike[]): { balance: number; lifetime: number } {
  let balance = 0;
  let lifetime = 0;
  for (const e of entries) {
    balance += e.delta;
    if (LIFETIME_KINDS.includes(e.kind)) lifetime += e.delta;
  }
  return { balance, lifetime };
}

/** Progress shown on a card: stamps fill a grid of `goal`, points just count. */
export type CardProgress =
  | { mode: "stamps"; stamps: number; goal: number; isFull: boolean; percent: number }
  | { mode: "points"; points: number };

export function cardProgress(mode: "stamps" | "points", stampsGoal: number, balance: number): CardProgress {
  if (mode === "points") return { mode, points: balance };
  const stamps = Math.max(0, balance);
  return {
    mode,
    stamps,
    goal: stampsGoal,
    isFull: stamps >= stampsGoal,
    percent: Math.min(100, Math.round((stamps / Math.max(1, stampsGoal)) * 100)),
  };
}
