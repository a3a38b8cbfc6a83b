import { and, desc, eq, sql } from "drizzle-orm";
import { reservedFr } from "../../../domain/phrases.ts";
import { AppError } from "../../../domain/errors.ts";
import {
  REDEMPTION_QR_PREFIX,
  REDEMPTION_STATUS_LABELS_FR,
  type RedeemRefusal,
  type RedemptionSource,
  type RedemptionStatus,
  redeemRefusalFr,
  refundLabelFr,
  unitLabelFr,
} from "../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../domain/loyalty/scan-rules.ts";
import type { Database, Db } from "../../db/client.ts";
import { cards, redemptions, rewards, shops } from "../../db/schema/index.ts";
import { announce } from "../../lib/live.ts";
import { callJson } from "../../lib/db-call.ts";
import { rewardPhotoUrl, shopBadge, shopBadgeColumns } from "./rewards.service.ts";

/**
 * Redemptions: "Utiliser" (fidele_redeem, src/server/db/functions/redeem.sql), the shopper's live
 * screen, staff validation, cancellation and expiry (fidele_redemption_close:
 * one way out of "pending", refund exactly once).
 */

export const redemptionNotFound = () =>
  new AppError("NOT_FOUND", { userMessage: "Cette récompense à valider est introuvable." });

export const REDEEM_SQL = "select fidele_redeem($1, $2, $3, $4, $5) as r";
const CLOSE_SQL = "select fidele_redemption_close($1, $2, $3, $4, $5, $6, $7) as r";

/** fidele_redemption_view's row: times in epoch milliseconds. */
type RedemptionView = Omit<
  RedemptionRow,
  "expiresAt" | "createdAt" | "decidedAt" | "rewardUpdatedAt" | "shopUpdatedAt" | "cardId" | "userId"
> & {
  expiresAt: number;
  createdAt: number;
  decidedAt: number | null;
  rewardUpdatedAt: number;
  shopUpdatedAt: number;
};

type RedeemAnswer =
  | { outcome: "accepted"; redemptionId: string; replayed: boolean; view: RedemptionView | null }
  | {
      outcome: RedeemRefusal;
      mode?: CardMode;
      missing?: number | null;
      validFrom?: string | null;
      validUntil?: string | null;
    };

type CloseAnswer =
  | { closed: false }
  | { closed: true; id: string; status: RedemptionStatus; shopId: string; cardId: string };

/* Live updates: in this process at once, across processes by the stream's polling (lib/live.ts). */
export { waitForChange } from "../../lib/live.ts";

export async function closeRedemption(
  database: Database,
  id: string,
  status: "validated" | "refused" | "cancelled" | "expired",
  scope: { actorId: string | null; reason?: string | null; shopId?: string | null; userId?: string | null },
): Promise<CloseAnswer> {
  const answer = await callJson<CloseAnswer>(database, "fidele_redemption_close", CLOSE_SQL, [
    id,
    status,
    scope.actorId,
    scope.reason ?? null,
    scope.shopId ?? null,
    scope.userId ?? null,
    status === "validated" ? null : refundLabelFr(status, scope.reason),
  ]);
  if (answer.closed) announce(database, id);
  return answer;
}

/** Expire this one if its time is up (so every read is right even between sweeps). */
export async function expireIfDue(database: Database, id: string) {
  await closeRedemption(database, id, "expired", { actorId: null });
}

const EXPIRE_SQL = "select fidele_expire_redemptions($1, $2, $3, $4) as r";
const EXPIRE_BATCH = 200;

/**
 * Expire every due redemption (all, or one shop's or one shopper's), in batches of
 * 200 closed by the database (fidele_expire_redemptions, one round trip each);
 * returns how many. Safe in many processes at once.
 */
export async function expireDueRedemptions(
  database: Database,
  scope: { shopId?: string; userId?: string } = {},
): Promise<number> {
  let total = 0;
  for (;;) {
    const ids = await callJson<string[]>(database, "fidele_expire_redemptions", EXPIRE_SQL, [
      EXPIRE_BATCH,
      scope.shopId ?? null,
      scope.userId ?? null,
      refundLabelFr("expired"),
    ]);
    for (const id of ids) announce(database, id);
    total += ids.length;
    if (ids.length < EXPIRE_BATCH) return total;
  }
}

function refusalError(answer: Exclude<RedeemAnswer, { outcome: "accepted" }>) {
  const status = answer.outcome === "unknown_reward" ? "NOT_FOUND" : "CONFLICT";
  return new AppError(status, {
    message: `redeem refused: ${answer.outcome}`,
    userMessage: redeemRefusalFr(answer.outcome, {
      mode: answer.mode ?? "points",
      missing: answer.missing ?? undefined,
      validFrom: answer.validFrom ?? null,
      validUntil: answer.validUntil ?? null,
    }),
  });
}

/**
 * "Utiliser": reserve a reward (or claim a gift). A retry with the same key
 * returns the same redemption; a refusal is a 409 saying why in French.
 */
export async function redeem(
  database: Database,
  userId: string,
  input: { rewardId: string; idempotencyKey: string; source?: RedemptionSource; sourceRef?: string | null },
) {
  const answer = await callJson<RedeemAnswer>(database, "fidele_redeem", REDEEM_SQL, [
    userId,
    input.rewardId,
    input.idempotencyKey,
    input.source ?? "reward",
    input.sourceRef ?? null,
  ]);
  if (answer.outcome !== "accepted") throw refusalError(answer);
  // Just made (or replayed), read back by the function itself: one round trip, no expiry check needed.
  if (!answer.view) throw redemptionNotFound();
  return { redemption: shopperRedemptionDto(fromView(answer.view)), replayed: answer.replayed };
}

/** What every view of a redemption reads from its own row (the shopper's, the counter's, the list). */
export const redemptionRowColumns = {
  id: redemptions.id,
  code: redemptions.code,
  status: redemptions.status,
  source: redemptions.source,
  title: redemptions.title,
  cost: redemptions.cost,
  expiresAt: redemptions.expiresAt,
  createdAt: redemptions.createdAt,
  decidedAt: redemptions.decidedAt,
  refuseReason: redemptions.refuseReason,
};

const redemptionColumns = {
  ...redemptionRowColumns,
  cardId: redemptions.cardId,
  userId: redemptions.userId,
  balance: cards.balance,
  rewardSlug: rewards.slug,
  rewardHasPhoto: sql<boolean>`${rewards.photo} is not null`,
  rewardUpdatedAt: rewards.updatedAt,
  ...shopBadgeColumns,
  mode: shops.cardMode,
};

const redemptionQuery = (db: Db) =>
  db
    .select(redemptionColumns)
    .from(redemptions)
    .innerJoin(cards, eq(cards.id, redemptions.cardId))
    .innerJoin(rewards, eq(rewards.id, redemptions.rewardId))
    .innerJoin(shops, eq(shops.id, redemptions.shopId));
type RedemptionRow = Awaited<ReturnType<typeof redemptionQuery>>[number];

function fromView(v: RedemptionView): Omit<RedemptionRow, "cardId" | "userId"> {
  return {
    ...v,
    expiresAt: new Date(v.expiresAt),
    createdAt: new Date(v.createdAt),
    decidedAt: v.decidedAt === null ? null : new Date(v.decidedAt),
    rewardUpdatedAt: new Date(v.rewardUpdatedAt),
    shopUpdatedAt: new Date(v.shopUpdatedAt),
  };
}

export const expiresInMs = (at: Date) => Math.max(0, at.getTime() - Date.now());

function shopperRedemptionDto(r: Omit<RedemptionRow, "cardId" | "userId">) {
  return {
    id: r.id,
    code: r.code,
    /** What the QR code on the shopper's screen holds. */
    qr: `${REDEMPTION_QR_PREFIX}${r.code}`,
    status: r.status,
    statusLabel: REDEMPTION_STATUS_LABELS_FR[r.status],
    source: r.source,
    title: r.title,
    cost: r.cost,
    costLabel: r.cost > 0 ? unitLabelFr(r.mode, r.cost) : "Offert",
    /** "3 tampons réservés", "1 tampon réservé", or "Offert". */
    reservedLabel: r.cost > 0 ? reservedFr(r.mode, r.cost) : "Offert",
    expiresAt: r.expiresAt.toISOString(),
    /** Time left when this answer was made: a phone whose clock is off still counts down right. */
    expiresInMs: expiresInMs(r.expiresAt),
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    refuseReason: r.refuseReason,
    balance: r.balance,
    balanceLabel: unitLabelFr(r.mode, r.balance),
    reward: {
      slug: r.rewardSlug,
      photoUrl: rewardPhotoUrl(r.rewardSlug, Boolean(r.rewardHasPhoto), r.rewardUpdatedAt),
    },
    shop: shopBadge(r),
  };
}

/** One of my redemptions; another person's is "not found". */
export async function getMyRedemption(
  database: Database,
  userId: string,
  id: string,
  options: { fresh?: boolean } = {},
) {
  if (!options.fresh) await expireIfDue(database, id);
  const [row] = await redemptionQuery(database.db)
    .where(and(eq(redemptions.id, id), eq(redemptions.userId, userId)))
    .limit(1);
  if (!row) throw redemptionNotFound();
  return shopperRedemptionDto(row);
}

export async function listMyRedemptions(database: Database, userId: string, status: "pending" | "all") {
  if (status === "pending") await expireDueRedemptions(database, { userId });
  const rows = await redemptionQuery(database.db)
    .where(and(eq(redemptions.userId, userId), status === "pending" ? eq(redemptions.status, "pending") : undefined))
    .orderBy(desc(redemptions.createdAt))
    .limit(50);
  return rows.map(shopperRedemptionDto);
}

/** The shopper changes their mind: the points come back at once. */
export async function cancelMyRedemption(database: Database, userId: string, id: string) {
  const answer = await closeRedemption(database, id, "cancelled", { actorId: userId, userId });
  if (!answer.closed) {
    const current = await getMyRedemption(database, userId, id);
    throw new AppError("CONFLICT", {
      userMessage: `Cette récompense ne peut plus être annulée : elle est ${current.statusLabel.toLowerCase()}.`,
    });
  }
  return getMyRedemption(database, userId, id);
}

export async function redemptionState(database: Database, userId: string, id: string) {
  const r = await getMyRedemption(database, userId, id);
  return {
    status: r.status,
    statusLabel: r.statusLabel,
    decidedAt: r.decidedAt,
    refuseReason: r.refuseReason,
    balance: r.balance,
    balanceLabel: r.balanceLabel,
    expiresAt: r.expiresAt,
    expiresInMs: r.expiresInMs,
  };
}
