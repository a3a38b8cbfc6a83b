import { and, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import {
  formatClaimCode,
  PAYMENT_METHOD_LABELS_FR,
  type PrepaidKind,
  type PrepaidRefusal,
  prepaidAmountLabel,
  prepaidDeltaLabel,
  prepaidLastDay,
  prepaidRefusalFr,
} from "../../../domain/loyalty/prepaid.ts";
import type { prepaidSaleSchema, prepaidUseSchema } from "../../../domain/schemas/prepaid.ts";
import type { Db } from "../../db/client.ts";
import { prepaidEntries, prepaidHoldings, profiles, shops } from "../../db/schema/index.ts";
import type { Deps } from "../../lib/context.ts";
import { recordAudit } from "../../lib/audit.ts";
import { callJson } from "../../lib/db-call.ts";
import { type ShopAccess, scopedShop, shopScope } from "../../lib/shop-access.ts";
import { mailTemplates } from "../mail/templates.ts";
import { throttledPersonalCodeLookup } from "../cards/counter.service.ts";
import { holdingColumns, holdingHistories } from "./holdings.service.ts";

/**
 * The counter's side of prepaid (ADR 0049): a sale recorded at the till, a holding looked up by the code its holder
 * shows, a unit or an amount used. Every write is one call of a database function (functions/prepaid.sql) that
 * takes the holding's row lock and answers an outcome code; French words are prepaidRefusalFr's.
 */

type Refused = { outcome: PrepaidRefusal; kind?: PrepaidKind; balance?: number; expiresAt?: number };

const REFUSAL_ERROR: Record<PrepaidRefusal, "NOT_FOUND" | "CONFLICT" | "FORBIDDEN"> = {
  unknown: "NOT_FOUND",
  expired: "CONFLICT",
  insufficient: "CONFLICT",
  own: "FORBIDDEN",
  suspended: "CONFLICT",
  unclaimed: "CONFLICT",
  already_claimed: "CONFLICT",
  already_cancelled: "CONFLICT",
  not_yours: "FORBIDDEN",
  too_late: "FORBIDDEN",
  already_used: "CONFLICT",
};

function refusalError(answer: Refused, tz: string) {
  return new AppError(REFUSAL_ERROR[answer.outcome], {
    message: `prepaid refused: ${answer.outcome}`,
    userMessage: prepaidRefusalFr(answer.outcome, {
      kind: answer.kind,
      balance: answer.balance,
      expiresOn: answer.expiresAt === undefined ? undefined : prepaidLastDay(new Date(answer.expiresAt), tz),
    }),
  });
}

/** A holding as the counter sees it: what is left, until when, whose (first name only). */
async function staffHolding(db: Db, access: ShopAccess, where: ReturnType<typeof eq>) {
  const [row] = await db
    .select({
      ...holdingColumns,
      userId: prepaidHoldings.userId,
      recipientEmail: prepaidHoldings.recipientEmail,
      firstName: profiles.firstName,
    })
    .from(prepaidHoldings)
    .innerJoin(shops, eq(shops.id, prepaidHoldings.shopId))
    .leftJoin(profiles, eq(profiles.id, prepaidHoldings.userId))
    .where(and(where, eq(prepaidHoldings.shopId, shopScope(access))))
    .limit(1);
  if (!row) throw new AppError("NOT_FOUND", { userMessage: prepaidRefusalFr("unknown") });
  const history = (await holdingHistories(db, [row])).get(row.id) ?? [];
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    code: row.code,
    balance: row.balance,
    balanceLabel: prepaidAmountLabel(row.kind, row.balance),
    expiresAt: row.expiresAt.toISOString(),
    lastDay: prepaidLastDay(row.expiresAt, row.tz),
    isExpired: row.expiresAt.getTime() <= Date.now(),
    holder: row.userId ? row.firstName?.trim() || "Client" : null,
    waitingFor: row.userId ? null : row.recipientEmail,
    history,
  };
}

export async function lookupPrepaid(db: Db, access: ShopAccess, code: string) {
  return staffHolding(db, access, eq(prepaidHoldings.code, code));
}

const SELL_SQL = "select fidele_prepaid_sell($1, $2, $3, $4, $5, $6, $7) as r";
type SellAnswer = { outcome: "accepted"; holdingId: string; replayed: boolean; claimCode?: string } | Refused;

export async function sellPrepaid(
  deps: Deps,
  access: ShopAccess,
  input: z.output<typeof prepaidSaleSchema>,
  clientIp: string,
) {
  const shop = await scopedShop(deps.db, access);
  let customerId: string | null = null;
  if (input.customerCode) {
    const customer = await throttledPersonalCodeLookup(deps.db, input.customerCode, [
      `personal-code:shop:${shop.id}`,
      `personal-code:ip:${clientIp}`,
    ]);
    if (!customer)
      throw new AppError("NOT_FOUND", {
        message: "unknown personal code",
        userMessage:
          "Code client inconnu : vérifiez-le, ou demandez au client d'afficher « Ma carte client » dans l'app.",
      });
    customerId = customer.id;
  }
  const answer = await callJson<SellAnswer>(deps.database, "fidele_prepaid_sell", SELL_SQL, [
    shop.id,
    input.productId,
    access.userId,
    customerId,
    input.giftEmail,
    input.paymentMethod,
    input.idempotencyKey,
  ]);
  if (answer.outcome !== "accepted") throw refusalError(answer, shop.timezone);
  const holding = await staffHolding(deps.db, access, eq(prepaidHoldings.id, answer.holdingId));
  if (answer.claimCode && input.giftEmail) {
    const url = new URL("/recuperer", deps.env.APP_URL);
    url.searchParams.set("code", answer.claimCode);
    await deps.mailer.send({
      to: input.giftEmail,
      kind: "prepaid-gift",
      ...mailTemplates["prepaid-gift"]({
        url: url.toString(),
        shopName: shop.name,
        title: holding.title,
        amount: holding.balanceLabel,
        expiresOn: holding.lastDay,
        code: formatClaimCode(answer.claimCode),
      }),
    });
  }
  const [sale] = await deps.db
    .select({ id: prepaidEntries.id, priceCents: prepaidHoldings.priceCents })
    .from(prepaidEntries)
    .innerJoin(prepaidHoldings, eq(prepaidHoldings.id, prepaidEntries.holdingId))
    .where(and(eq(prepaidEntries.holdingId, holding.id), eq(prepaidEntries.kind, "sale")))
    .limit(1);
  return {
    replayed: answer.replayed,
    holding,
    paymentLabel: PAYMENT_METHOD_LABELS_FR[input.paymentMethod],
    /** What the till took, to give back if the sale is cancelled. */
    priceLabel: prepaidAmountLabel("euros", sale?.priceCents ?? 0),
    /** The sale's ledger entry: what « Annuler cette vente » names. */
    entryId: sale?.id ?? null,
  };
}

/** The shop the access reaches, with its time zone (the refusals' dates). */
async function counterShop(db: Db, access: ShopAccess) {
  const [shop] = await db
    .select({ id: shops.id, tz: shops.timezone })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

const USE_SQL = "select fidele_prepaid_use($1, $2, $3, $4, $5) as r";
type EntryAnswer =
  | { outcome: "accepted"; holdingId: string; balance: number; entryId: number; replayed: boolean }
  | Refused;

export async function usePrepaid(deps: Deps, access: ShopAccess, input: z.output<typeof prepaidUseSchema>) {
  const shop = await counterShop(deps.db, access);
  const answer = await callJson<EntryAnswer>(deps.database, "fidele_prepaid_use", USE_SQL, [
    shop.id,
    input.code,
    input.amount,
    access.userId,
    input.idempotencyKey,
  ]);
  if (answer.outcome !== "accepted") throw refusalError(answer, shop.tz);
  return {
    replayed: answer.replayed,
    /** The use's ledger entry: what « Annuler ce débit » names. */
    entryId: answer.entryId,
    holding: await staffHolding(deps.db, access, eq(prepaidHoldings.id, answer.holdingId)),
  };
}

const CANCEL_SQL = "select fidele_prepaid_cancel($1, $2, $3, $4) as r";

/**
 * A use typed wrong at the till given back, or a sale not yet used taken back (ADR 0049): by whoever typed it within
 * PREPAID_CANCEL_MINUTES, by the owner or a manager at any time, never on one's own holding; once. Audited.
 */
export async function cancelPrepaidEntry(deps: Deps, access: ShopAccess, entryId: number, ip: string) {
  const shop = await counterShop(deps.db, access);
  const mayAny = access.role === "owner" || access.role === "admin";
  const answer = await callJson<EntryAnswer & { cancelled?: number }>(
    deps.database,
    "fidele_prepaid_cancel",
    CANCEL_SQL,
    [shop.id, entryId, access.userId, mayAny],
  );
  if (answer.outcome !== "accepted") throw refusalError(answer, shop.tz);
  const holding = await staffHolding(deps.db, access, eq(prepaidHoldings.id, answer.holdingId));
  if (!answer.replayed)
    await recordAudit(deps.db, {
      actorId: access.userId,
      shopId: shop.id,
      action: "prepaid.cancel",
      target: holding.id,
      details: {
        entry: entryId,
        what: (answer.cancelled ?? 0) < 0 ? "sale" : "use",
        amount: prepaidDeltaLabel(holding.kind, answer.cancelled ?? 0),
      },
      ip,
    });
  return { replayed: answer.replayed, holding };
}
