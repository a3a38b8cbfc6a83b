import { and, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import {
  ADJUSTMENT_STATUS_LABELS_FR,
  type AdjustmentStatus,
  decideAdjustment,
} from "../../../domain/loyalty/adjustments.ts";
import { LEDGER_KIND_LABELS_FR } from "../../../domain/loyalty/ledger.ts";
import type { adjustmentSchema } from "../../../domain/schemas/cards.ts";
import type { Db } from "../../db/client.ts";
import { cards, ledgerEntries, shops } from "../../db/schema/index.ts";
import { recordAudit } from "../../lib/audit.ts";
import { pgErrorCode } from "../../lib/shop-dto.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/**
 * Corrections of a card by the shop (issue 22, row 17; ADR 0036): made at the counter or on /profile/{id}, capped
 * for team members, every one in the owner's feed, the ones beyond the cap approved by an owner or a manager.
 * The rule of who may do what is src/domain/loyalty/adjustments.ts.
 */

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const cardNotFound = () => new AppError("NOT_FOUND", { userMessage: "Carte introuvable." });
const notFound = () => new AppError("NOT_FOUND", { userMessage: "Cette correction est introuvable." });
const ownCard = () =>
  new AppError("FORBIDDEN", {
    message: "self adjustment",
    userMessage: "Vous ne pouvez pas corriger votre propre carte : un autre responsable de la boutique doit le faire.",
  });

/** The balance would go below zero: 409 with the balance now. */
const belowZeroError = (balance: number) =>
  new AppError("CONFLICT", {
    message: "adjustment below zero",
    userMessage: `Le solde ne peut pas devenir négatif (solde actuel : ${balance}).`,
  });

async function belowZero(db: Db, cardId: string) {
  const [card] = await db.select({ balance: cards.balance }).from(cards).where(eq(cards.id, cardId));
  return belowZeroError(card?.balance ?? 0);
}

/** Writes an adjustment's ledger entry (at most once per adjustment: ledger_entries_adjustment_once_idx). */
async function applyToLedger(tx: Tx, adjustmentId: string, actorId: string, idempotencyKey: string | null) {
  const result = await tx.execute<{ card_id: string; shop_id: string; delta: number; reason: string }>(sql`
    insert into ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, ref_id, idempotency_key)
    select a.card_id, a.shop_id, a.kind, a.delta, ${actorId}, a.reason, a.id, ${idempotencyKey}
    from adjustments a where a.id = ${adjustmentId}
    returning card_id, shop_id, delta, reason`);
  const entry = result.rows[0];
  if (!entry) throw notFound();
  await recordAudit(tx, {
    actorId,
    shopId: entry.shop_id,
    action: "points.adjust",
    target: entry.card_id,
    details: { delta: entry.delta, reason: entry.reason, adjustmentId },
  });
}

/**
 * A correction by someone on the shop's team. Within the rules it is applied at once (201); a team member beyond
 * the cap or the day's count makes a request that waits (202); a retry with the same key answers the first outcome.
 */
export async function adjustCard(db: Db, access: ShopAccess, input: z.output<typeof adjustmentSchema>) {
  const [target] = await db
    .select({
      userId: cards.userId,
      cardMode: shops.cardMode,
      pointsPerVisit: shops.pointsPerVisit,
      adjustmentLimit: shops.adjustmentLimit,
      staffAdjustmentsPerDay: shops.staffAdjustmentsPerDay,
      staffAdjustmentsLifetime: shops.staffAdjustmentsLifetime,
    })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .where(and(eq(cards.id, input.cardId), eq(cards.shopId, shopScope(access))))
    .limit(1);
  if (!target) throw cardNotFound();
  // Nobody profits from their own power: not even the owner corrects their own card.
  if (target.userId === access.userId) throw ownCard();

  let outcome: { id: string; replayed: boolean };
  try {
    outcome = await db.transaction(async (tx) => {
      // One correction at a time per author and shop, so that the day's count below cannot be raced.
      await tx.execute(
        sql`select pg_advisory_xact_lock(hashtextextended(${`adjust:${access.shopId}:${access.userId}`}, 0))`,
      );
      const [earlier] = (
        await tx.execute<{ id: string }>(sql`
          select id from adjustments where actor_id = ${access.userId} and idempotency_key = ${input.idempotencyKey}`)
      ).rows;
      if (earlier) return { id: earlier.id, replayed: true };
      const [facts] = (
        await tx.execute<{ earlier_today: number; is_team_card: boolean; balance: number }>(sql`
          select c.balance,
            (select count(*)::int from adjustments a
              where a.shop_id = s.id and a.actor_id = ${access.userId}
                and a.created_at >= (date_trunc('day', now() at time zone s.timezone) at time zone s.timezone)) as earlier_today,
            exists (select 1 from member m where m.organization_id = s.id and m.user_id = c.user_id) as is_team_card
          from cards c join shops s on s.id = c.shop_id where c.id = ${input.cardId}`)
      ).rows;
      const decision = decideAdjustment({
        role: access.role,
        delta: input.delta,
        earlierToday: facts?.earlier_today ?? 0,
        isTeamCard: facts?.is_team_card ?? false,
        rules: target,
      });
      const applied = decision.status === "applied";
      // A request that could never be applied is refused now, as an applied one would be.
      const balance = facts?.balance ?? 0;
      if (!applied && balance + input.delta < 0) throw belowZeroError(balance);
      const [row] = (
        await tx.execute<{ id: string }>(sql`
          insert into adjustments (shop_id, card_id, actor_id, delta, reason, status, kind, alerts, idempotency_key, decided_by, decided_at)
          select c.shop_id, c.id, ${access.userId}, ${input.delta}, ${input.reason}, ${decision.status}, ${decision.kind},
                 ${`{${decision.alerts.join(",")}}`}::text[], ${input.idempotencyKey},
                 ${applied ? access.userId : null}, ${applied ? sql`now()` : null}
          from cards c where c.id = ${input.cardId} and c.shop_id = ${shopScope(access)}
          returning id`)
      ).rows;
      if (!row) throw cardNotFound();
      if (applied) await applyToLedger(tx, row.id, access.userId, input.idempotencyKey);
      return { id: row.id, replayed: false };
    });
  } catch (error) {
    if (pgErrorCode(error) === "23514") throw await belowZero(db, input.cardId);
    // The same key already used by this author at another shop.
    if (pgErrorCode(error) === "23505")
      throw new AppError("CONFLICT", { userMessage: "Cette correction a déjà été envoyée." });
    throw error;
  }
  return { ...(await adjustmentAnswer(db, access, outcome.id)), replayed: outcome.replayed };
}

/** The answer to the author: the correction, and the card with its ledger entry once applied. */
async function adjustmentAnswer(db: Db, access: ShopAccess, id: string) {
  const [row] = (
    await db.execute<{ id: string; status: AdjustmentStatus; delta: number; reason: string; card_id: string }>(sql`
      select a.id, a.status, a.delta, a.reason, a.card_id from adjustments a
      where a.id = ${id} and a.shop_id = ${shopScope(access)}`)
  ).rows;
  if (!row) throw cardNotFound();
  const [entry] = await db
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      delta: ledgerEntries.delta,
      reason: ledgerEntries.reason,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.refId, id), sql`${ledgerEntries.kind} in ('adjustment', 'adjustment_balance')`))
    .limit(1);
  const [card] = await db
    .select({ id: cards.id, balance: cards.balance, lifetime: cards.lifetime })
    .from(cards)
    .where(eq(cards.id, row.card_id));
  return {
    status: row.status,
    adjustment: {
      id: row.id,
      status: row.status,
      statusLabel: ADJUSTMENT_STATUS_LABELS_FR[row.status],
      delta: row.delta,
    },
    entry: entry
      ? {
          ...entry,
          cardId: row.card_id,
          kindLabel: LEDGER_KIND_LABELS_FR[entry.kind],
          createdAt: entry.createdAt.toISOString(),
        }
      : null,
    card: card ?? { id: row.card_id, balance: 0, lifetime: 0 },
  };
}

/**
 * An owner or a manager approves or refuses a waiting correction. Approval moves the points exactly once: the
 * request leaves "pending" in the same statement that claims it, and the ledger takes one entry per correction.
 */
export async function decideAdjustmentRequest(db: Db, access: ShopAccess, id: string, decision: "approve" | "refuse") {
  const [request] = (
    await db.execute<{ status: AdjustmentStatus; actor_id: string; card_id: string; customer_id: string | null }>(sql`
      select a.status, a.actor_id, a.card_id, c.user_id as customer_id
      from adjustments a join cards c on c.id = a.card_id
      where a.id = ${id} and a.shop_id = ${shopScope(access)}`)
  ).rows;
  if (!request) throw notFound();
  const alreadyDecided = () =>
    new AppError("CONFLICT", {
      message: "adjustment already decided",
      userMessage: "Cette correction a déjà été traitée.",
    });
  if (request.status !== "pending") throw alreadyDecided();
  if (decision === "approve") {
    if (request.customer_id === access.userId) throw ownCard();
    if (request.actor_id === access.userId) {
      throw new AppError("FORBIDDEN", {
        message: "approving one's own request",
        userMessage: "Un autre responsable de la boutique doit valider votre propre demande.",
      });
    }
  }
  try {
    await db.transaction(async (tx) => {
      const claimed = await tx.execute<{ id: string }>(sql`
        update adjustments set status = ${decision === "approve" ? "applied" : "refused"},
               decided_by = ${access.userId}, decided_at = now()
        where id = ${id} and shop_id = ${shopScope(access)} and status = 'pending'
        returning id`);
      if (claimed.rows.length === 0) throw alreadyDecided();
      if (decision === "approve") await applyToLedger(tx, id, access.userId, null);
    });
  } catch (error) {
    if (pgErrorCode(error) === "23514") throw await belowZero(db, request.card_id);
    throw error;
  }
  return adjustmentAnswer(db, access, id);
}
