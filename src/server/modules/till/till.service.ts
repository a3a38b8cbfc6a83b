import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import type { tillCreditSchema, tillRedeemSchema } from "../../../domain/schemas/till.ts";
import type { Database, Db } from "../../db/client.ts";
import { cards, rewards, shops } from "../../db/schema/index.ts";
import { consumeThrottle, refundThrottle } from "../../lib/throttle.ts";
import { findByPersonalCode } from "../cards/personal-code.service.ts";
import { performScan } from "../cards/scan.service.ts";
import { closeRedemption, redeem } from "../rewards/redemptions.service.ts";
import type { ApiCaller } from "./api-keys.service.ts";

/**
 * What a till does with a shop's API key (issue 29, ADR 0050): find a customer by the personal code they show,
 * credit a visit or an amount, list the rewards, hand one over. Everything is scoped by the key's shop: a reward
 * or a card of another shop is "not found".
 */

/** Unknown personal codes a key may send per window (the counter's own figure): guessing stays out of reach. */
const CODE_MISSES = { windowSeconds: 600, max: 20 };

async function customerOf(db: Db, caller: ApiCaller, code: string) {
  const key = `personal-code:apikey:${caller.keyId}`;
  const check = await consumeThrottle(db, key, CODE_MISSES.windowSeconds, CODE_MISSES.max);
  if (!check.allowed) {
    throw new AppError("RATE_LIMITED", {
      message: "personal code lookups throttled",
      userMessage: "Trop de codes client inconnus avec cette clé. Réessayez dans quelques minutes.",
    });
  }
  const customer = await findByPersonalCode(db, code);
  if (!customer) {
    throw new AppError("NOT_FOUND", {
      message: "unknown personal code",
      userMessage: "Code client inconnu : le client l'affiche dans l'app (Profil › Ma carte client).",
    });
  }
  await refundThrottle(db, key);
  return customer;
}

/** A customer by personal code, with their card at this shop (null before their first visit). */
export async function lookupTillCustomer(db: Db, caller: ApiCaller, code: string) {
  const customer = await customerOf(db, caller, code);
  const [card] = await db
    .select({
      id: cards.id,
      balance: cards.balance,
      lifetime: cards.lifetime,
      visits: cards.visits,
      mode: shops.cardMode,
    })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .where(and(eq(cards.shopId, caller.shopId), eq(cards.userId, customer.id)))
    .limit(1);
  return {
    customer: { firstName: customer.firstName },
    card: card
      ? { id: card.id, mode: card.mode, balance: card.balance, lifetime: card.lifetime, visits: card.visits }
      : null,
  };
}

const actorOf = (caller: ApiCaller) => `apikey:${caller.keyId}`;

/** A visit, or an amount, credited under the card's rules (method "till"); the scan's answer and its followUps. */
export async function tillCredit(
  database: Database,
  caller: ApiCaller,
  input: z.output<typeof tillCreditSchema>,
  idempotencyKey: string,
) {
  const customer = await customerOf(database.db, caller, input.customerCode);
  const { answer, followUps } = await performScan(
    database,
    { userId: customer.id, actorId: actorOf(caller) },
    {
      scanUid: caller.scanUid,
      token: null,
      poster: null,
      deviceId: null,
      idempotencyKey,
      amountCents: input.amountCents,
    },
    "till",
  );
  return { answer, followUps };
}

export async function listTillRewards(db: Db, caller: ApiCaller) {
  const rows = await db
    .select({ id: rewards.id, title: rewards.title, cost: rewards.cost, stock: rewards.stock, mode: shops.cardMode })
    .from(rewards)
    .innerJoin(shops, eq(shops.id, rewards.shopId))
    .where(and(eq(rewards.shopId, caller.shopId), eq(rewards.isActive, true), isNull(rewards.archivedAt)))
    .orderBy(asc(rewards.position), asc(rewards.createdAt));
  return rows;
}

/**
 * A reward handed over at the till: reserved on the customer's card (fidele_redeem, its rules and balance) and
 * validated at once, by the key. A retry with the same idempotency key reserves nothing more.
 */
export async function tillRedeem(
  database: Database,
  caller: ApiCaller,
  input: z.output<typeof tillRedeemSchema>,
  idempotencyKey: string,
) {
  const [reward] = await database.db
    .select({ id: rewards.id })
    .from(rewards)
    .where(and(eq(rewards.id, input.rewardId), eq(rewards.shopId, caller.shopId)))
    .limit(1);
  if (!reward) throw new AppError("NOT_FOUND", { userMessage: "Récompense introuvable dans cette boutique." });
  const customer = await customerOf(database.db, caller, input.customerCode);
  const { redemption } = await redeem(database, customer.id, {
    rewardId: reward.id,
    // The customer's own keys live in the same column: the API key's id keeps them apart.
    idempotencyKey: `${caller.keyId}.${idempotencyKey}`,
  });
  if (redemption.status === "pending") {
    await closeRedemption(database, redemption.id, "validated", { actorId: actorOf(caller), shopId: caller.shopId });
  }
  const [row] = await database.db
    .execute<{ status: string; balance: number }>(sql`
    select r.status, c.balance from redemptions r join cards c on c.id = r.card_id where r.id = ${redemption.id}`)
    .then((r) => r.rows);
  return {
    redemption: {
      id: redemption.id,
      title: redemption.title,
      cost: redemption.cost,
      status: row?.status ?? redemption.status,
    },
    card: { balance: row?.balance ?? redemption.balance },
  };
}
