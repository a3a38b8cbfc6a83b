import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import {
  parseRedemptionCode,
  REDEMPTION_QR_PREFIX,
  REDEMPTION_STATUS_LABELS_FR,
  type RedeemRefusal,
  type RedemptionSource,
  type RedemptionStatus,
  redeemRefusalFr,
  unitLabelFr,
} from "../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../domain/loyalty/scan-rules.ts";
import type { Database, Db } from "../../db/client.ts";
import { cards, profiles, redemptions, rewards, shops } from "../../db/schema/index.ts";
import { announce } from "../../lib/live.ts";
import type { Logger } from "../../lib/logger.ts";
import { type ShopAccess, shopScope } from "../backoffice/access.ts";
import { imageUrl } from "../shops/shop-dto.ts";
import { rewardPhotoUrl } from "./rewards.service.ts";

/**
 * Redemptions: "Utiliser" (fidele_redeem, migration 0004), the shopper's live
 * screen, staff validation, cancellation and expiry (fidele_redemption_close:
 * one way out of "pending", refund exactly once).
 */

const notFound = () => new AppError("NOT_FOUND", { userMessage: "Cette récompense à valider est introuvable." });

/* Raw calls of the database functions (one round trip each). */
async function callJson<T>(database: Database, name: string, text: string, values: unknown[]): Promise<T> {
  if (database.pool) {
    const res = await database.pool.query<{ r: T }>({ name, text, values });
    return res.rows[0]!.r;
  }
  const res = await database.pglite!.query<{ r: T }>(text, values);
  return res.rows[0]!.r;
}

export const REDEEM_SQL = "select fidele_redeem($1, $2, $3, $4, $5) as r";
const CLOSE_SQL = "select fidele_redemption_close($1, $2, $3, $4, $5, $6) as r";

type RedeemAnswer =
  | { outcome: "accepted"; redemptionId: string; replayed: boolean }
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

async function close(
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
  ]);
  if (answer.closed) announce(database, id);
  return answer;
}

/** Expire this one if its time is up (so every read is right even between sweeps). */
async function expireIfDue(database: Database, id: string) {
  await close(database, id, "expired", { actorId: null });
}

const EXPIRE_SQL = "select fidele_expire_redemptions($1, $2, $3) as r";
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
    ]);
    for (const id of ids) announce(database, id);
    total += ids.length;
    if (ids.length < EXPIRE_BATCH) return total;
  }
}

/** Runs the sweeper now and every `everyMs`; returns a stop function. */
export function startRedemptionSweeper(database: Database, logger: Logger, everyMs = 5000): () => void {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const n = await expireDueRedemptions(database);
      if (n > 0) logger.info(`redemptions: ${n} expired, points given back`);
    } catch (error) {
      logger.error("redemptions: expiry sweep failed", {
        error: error instanceof Error ? error.message : String(error),
      });
    } finally {
      running = false;
    }
  };
  void run();
  const timer = setInterval(run, everyMs);
  timer.unref();
  return () => clearInterval(timer);
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
  // Just made (or replayed): no need to look at its expiry first.
  const redemption = await getMyRedemption(database, userId, answer.redemptionId, { fresh: true });
  return { redemption, replayed: answer.replayed };
}

const redemptionColumns = {
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
  cardId: redemptions.cardId,
  userId: redemptions.userId,
  balance: cards.balance,
  rewardSlug: rewards.slug,
  rewardHasPhoto: sql<boolean>`${rewards.photo} is not null`,
  rewardUpdatedAt: rewards.updatedAt,
  shopSlug: shops.slug,
  shopName: shops.name,
  mode: shops.cardMode,
  shopHasLogo: sql<boolean>`${shops.logo} is not null`,
  shopUpdatedAt: shops.updatedAt,
};

const redemptionQuery = (db: Db) =>
  db
    .select(redemptionColumns)
    .from(redemptions)
    .innerJoin(cards, eq(cards.id, redemptions.cardId))
    .innerJoin(rewards, eq(rewards.id, redemptions.rewardId))
    .innerJoin(shops, eq(shops.id, redemptions.shopId));
type RedemptionRow = Awaited<ReturnType<typeof redemptionQuery>>[number];

const expiresInMs = (at: Date) => Math.max(0, at.getTime() - Date.now());

function shopperRedemptionDto(r: RedemptionRow) {
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
    shop: {
      slug: r.shopSlug,
      name: r.shopName,
      logoUrl: imageUrl(r.shopSlug, "logo", Boolean(r.shopHasLogo), r.shopUpdatedAt),
    },
  };
}
export type ShopperRedemption = ReturnType<typeof shopperRedemptionDto>;

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
  if (!row) throw notFound();
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
  const answer = await close(database, id, "cancelled", { actorId: userId, userId });
  if (!answer.closed) {
    const current = await getMyRedemption(database, userId, id);
    throw new AppError("CONFLICT", {
      userMessage: `Cette récompense ne peut plus être annulée : elle est ${current.statusLabel.toLowerCase()}.`,
    });
  }
  return getMyRedemption(database, userId, id);
}

/* Staff at the counter ---------------------------------------------------------- */

async function staffRow(database: Database, access: ShopAccess, where: SQL | undefined) {
  const [row] = await database.db
    .select({
      id: redemptions.id,
      code: redemptions.code,
      status: redemptions.status,
      source: redemptions.source,
      title: redemptions.title,
      cost: redemptions.cost,
      expiresAt: redemptions.expiresAt,
      createdAt: redemptions.createdAt,
      decidedAt: redemptions.decidedAt,
      decidedBy: redemptions.decidedBy,
      refuseReason: redemptions.refuseReason,
      mode: shops.cardMode,
      firstName: profiles.firstName,
      rewardSlug: rewards.slug,
      rewardHasPhoto: sql<boolean>`${rewards.photo} is not null`,
      rewardUpdatedAt: rewards.updatedAt,
      decidedByName: sql<string | null>`(select u.name from "user" u where u.id = ${redemptions.decidedBy})`,
    })
    .from(redemptions)
    .innerJoin(shops, eq(shops.id, redemptions.shopId))
    .innerJoin(rewards, eq(rewards.id, redemptions.rewardId))
    .leftJoin(profiles, eq(profiles.id, redemptions.userId))
    .where(and(where, eq(redemptions.shopId, shopScope(access))))
    .orderBy(desc(redemptions.createdAt))
    .limit(1);
  return row ?? null;
}

function staffRedemptionDto(r: NonNullable<Awaited<ReturnType<typeof staffRow>>>) {
  return {
    id: r.id,
    code: r.code,
    status: r.status,
    statusLabel: REDEMPTION_STATUS_LABELS_FR[r.status],
    source: r.source,
    title: r.title,
    costLabel: r.cost > 0 ? unitLabelFr(r.mode, r.cost) : "Offert",
    customerFirstName: r.firstName?.trim() || "Client",
    expiresAt: r.expiresAt.toISOString(),
    expiresInMs: expiresInMs(r.expiresAt),
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decidedByName: r.decidedByName,
    refuseReason: r.refuseReason,
    photoUrl: rewardPhotoUrl(r.rewardSlug, Boolean(r.rewardHasPhoto), r.rewardUpdatedAt),
  };
}
export type StaffRedemption = ReturnType<typeof staffRedemptionDto>;

/**
 * A code typed or scanned at the counter. A pending one of this shop is found
 * first; a code that only another shop knows is "not found".
 */
export async function lookupRedemption(database: Database, access: ShopAccess, rawCode: string) {
  const code = parseRedemptionCode(rawCode);
  if (!code)
    throw new AppError("VALIDATION", {
      userMessage: "Ce code n'a pas le bon format : 6 lettres et chiffres.",
      fields: { code: "Code invalide." },
    });
  await expireDueRedemptions(database, { shopId: access.shopId });
  const pending = await staffRow(database, access, and(eq(redemptions.code, code), eq(redemptions.status, "pending")));
  const row = pending ?? (await staffRow(database, access, eq(redemptions.code, code)));
  if (!row)
    throw new AppError("NOT_FOUND", { userMessage: "Aucune récompense à valider avec ce code dans votre boutique." });
  return staffRedemptionDto(row);
}

async function decide(
  database: Database,
  access: ShopAccess,
  id: string,
  status: "validated" | "refused",
  reason: string | null,
) {
  const [scoped] = await database.db
    .select({ shopId: redemptions.shopId })
    .from(redemptions)
    .where(and(eq(redemptions.id, id), eq(redemptions.shopId, shopScope(access))))
    .limit(1);
  if (!scoped) throw notFound();
  await expireIfDue(database, id);
  const answer = await close(database, id, status, { actorId: access.userId, reason, shopId: scoped.shopId });
  const row = await staffRow(database, access, eq(redemptions.id, id));
  if (!row) throw notFound();
  if (!answer.closed) {
    throw new AppError("CONFLICT", {
      userMessage:
        row.status === "expired"
          ? "Trop tard : cette récompense a expiré et ses points ont été rendus au client."
          : `Cette récompense est déjà ${REDEMPTION_STATUS_LABELS_FR[row.status].toLowerCase()}.`,
    });
  }
  return staffRedemptionDto(row);
}

export const validateRedemption = (database: Database, access: ShopAccess, id: string) =>
  decide(database, access, id, "validated", null);
export const refuseRedemption = (database: Database, access: ShopAccess, id: string, reason: string) =>
  decide(database, access, id, "refused", reason);

/* The owner: what is owed ------------------------------------------------------ */

export async function listShopRedemptions(
  database: Database,
  access: ShopAccess,
  q: { status: RedemptionStatus | "all"; limit: number },
) {
  await expireDueRedemptions(database, { shopId: access.shopId });
  const rows = await database.db
    .select({
      id: redemptions.id,
      code: redemptions.code,
      status: redemptions.status,
      source: redemptions.source,
      title: redemptions.title,
      cost: redemptions.cost,
      createdAt: redemptions.createdAt,
      decidedAt: redemptions.decidedAt,
      expiresAt: redemptions.expiresAt,
      refuseReason: redemptions.refuseReason,
      mode: shops.cardMode,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      decidedByName: sql<string | null>`(select u.name from "user" u where u.id = ${redemptions.decidedBy})`,
    })
    .from(redemptions)
    .innerJoin(shops, eq(shops.id, redemptions.shopId))
    .leftJoin(profiles, eq(profiles.id, redemptions.userId))
    .where(
      and(eq(redemptions.shopId, shopScope(access)), q.status === "all" ? undefined : eq(redemptions.status, q.status)),
    )
    .orderBy(desc(redemptions.createdAt))
    .limit(q.limit);
  return {
    redemptions: rows.map((r) => ({
      id: r.id,
      code: r.code,
      status: r.status,
      statusLabel: REDEMPTION_STATUS_LABELS_FR[r.status],
      source: r.source,
      title: r.title,
      costLabel: r.cost > 0 ? unitLabelFr(r.mode, r.cost) : "Offert",
      customer: [r.firstName, r.lastName ? `${r.lastName.slice(0, 1)}.` : null].filter(Boolean).join(" ") || "Client",
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      expiresAt: r.expiresAt.toISOString(),
      decidedByName: r.decidedByName,
      refuseReason: r.refuseReason,
    })),
  };
}

/**
 * /admin "what is owed": rewards waiting at the counter, those handed over in the
 * last `days` days, and the points customers hold (a liability: each can become a
 * reward), with how many customers could take a reward right now.
 */
export async function getOwed(database: Database, access: ShopAccess, days = 30) {
  await expireDueRedemptions(database, { shopId: access.shopId });
  const scope = shopScope(access);
  const result = await database.db.execute<{
    mode: CardMode;
    pending_count: number;
    pending_cost: number;
    validated_count: number;
    validated_cost: number;
    outstanding: number;
    holders: number;
    can_redeem: number;
    cheapest: number | null;
  }>(sql`
    with s as (select id, card_mode from shops where id = ${scope}),
    cheapest as (
      select min(r.cost) as cost from rewards r, s
      where r.shop_id = s.id and r.is_active and r.archived_at is null and (r.stock is null or r.stock > 0)
    )
    select
      s.card_mode as mode,
      (select count(*)::int from redemptions d where d.shop_id = s.id and d.status = 'pending') as pending_count,
      (select coalesce(sum(d.cost), 0)::int from redemptions d where d.shop_id = s.id and d.status = 'pending') as pending_cost,
      (select count(*)::int from redemptions d where d.shop_id = s.id and d.status = 'validated'
         and d.decided_at > now() - make_interval(days => ${days})) as validated_count,
      (select coalesce(sum(d.cost), 0)::int from redemptions d where d.shop_id = s.id and d.status = 'validated'
         and d.decided_at > now() - make_interval(days => ${days})) as validated_cost,
      (select coalesce(sum(c.balance), 0)::int from cards c where c.shop_id = s.id) as outstanding,
      (select count(*)::int from cards c where c.shop_id = s.id and c.balance > 0) as holders,
      (select count(*)::int from cards c, cheapest where c.shop_id = s.id and cheapest.cost is not null and c.balance >= cheapest.cost) as can_redeem,
      (select cost from cheapest) as cheapest
    from s`);
  const row = result.rows[0];
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  const label = (n: number) => unitLabelFr(row.mode, n);
  return {
    days,
    mode: row.mode,
    pending: { count: row.pending_count, cost: row.pending_cost, costLabel: label(row.pending_cost) },
    validated: { count: row.validated_count, cost: row.validated_cost, costLabel: label(row.validated_cost) },
    outstanding: { points: row.outstanding, label: label(row.outstanding), holders: row.holders },
    canRedeemNow: row.can_redeem,
    cheapestRewardLabel: row.cheapest === null ? null : label(row.cheapest),
  };
}

/** For the SSE stream: the bits of a redemption that change. */
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
