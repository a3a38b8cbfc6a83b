import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { customerCodeIn, refundTakesBack } from "../../../domain/loyalty/till-sales.ts";
import type { zettleConnectSchema, zettleEventSchema } from "../../../domain/schemas/till.ts";
import { tillConnections, tillSales, user } from "../../db/schema/index.ts";
import { recordAudit } from "../../lib/audit.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { consumeThrottle, refundThrottle } from "../../lib/throttle.ts";
import { findByPersonalCode } from "../cards/personal-code.service.ts";
import { performScan } from "../cards/scan.service.ts";
import { emitVisitEvents } from "../webhooks/webhooks.service.ts";
import {
  createZettleSubscription,
  deleteZettleSubscription,
  uuidV1,
  ZettleKeyRefused,
  type ZettlePurchase,
  zettleConfig,
  zettleOrganization,
  zettlePurchase,
  zettleSignatureOk,
} from "./zettle.ts";

/**
 * The Zettle connector (issue 29 item 5, ADR 0051). The owner connects the shop's Zettle account with an API key
 * made in my.zettle.com; Zettle pushes every purchase to /api/connectors/zettle/<hookId>, signed; a job reads the
 * purchase from the Purchase API (the event only says which) and credits the customer whose personal code the
 * cashier typed in an item's comment, by amount, under the card's rules; a refund takes the sale's points back in
 * the share refunded. Each purchase is handled once (till_sales' key), whatever Zettle sends again.
 */

const ACTOR = "till:zettle";
/** Unknown codes typed into sales per shop and window (the counter's figure): guessing stays out of reach. */
const CODE_MISSES = { windowSeconds: 600, max: 20 };

const TILL_SALE_OUTCOME_LABELS_FR: Record<string, string> = {
  credited: "Points crédités",
  no_code: "Pas de code client dans la vente",
  unknown_code: "Code client inconnu",
  throttled: "Trop de codes inconnus : vente ignorée",
  refused: "Refusé par les règles de la carte",
  too_small: "Montant trop faible pour un point",
  team: "Client membre de l'équipe : non crédité",
  currency: "Vente dans une autre devise que l'euro",
  taken_back: "Points repris",
  nothing_to_take: "Rien à reprendre",
};

const connectionColumns = {
  vendor: tillConnections.vendor,
  status: tillConnections.status,
  organizationUuid: tillConnections.organizationUuid,
  createdAt: tillConnections.createdAt,
  lastEventAt: tillConnections.lastEventAt,
  hookId: tillConnections.hookId,
};

const hookUrl = (appUrl: string, hookId: string) => `${appUrl.replace(/\/+$/, "")}/api/connectors/zettle/${hookId}`;

/** What the owner sees: the connection (never its key nor signing key) and the last sales it brought. */
export async function tillConnectionStatus(deps: Pick<Deps, "db" | "env">, access: ShopAccess) {
  const [connection] = await deps.db
    .select(connectionColumns)
    .from(tillConnections)
    .where(eq(tillConnections.shopId, shopScope(access)))
    .limit(1);
  const sales = connection
    ? await deps.db
        .select({
          purchaseId: tillSales.purchaseId,
          kind: tillSales.kind,
          purchaseNumber: tillSales.purchaseNumber,
          amountCents: tillSales.amountCents,
          points: tillSales.points,
          outcome: tillSales.outcome,
          createdAt: tillSales.createdAt,
          firstName: sql<string | null>`(select p.first_name from profiles p where p.id = ${tillSales.userId})`,
        })
        .from(tillSales)
        .where(eq(tillSales.shopId, shopScope(access)))
        .orderBy(desc(tillSales.createdAt))
        .limit(20)
    : [];
  return {
    connection: connection
      ? {
          vendor: connection.vendor,
          status: connection.status,
          organizationUuid: connection.organizationUuid,
          createdAt: connection.createdAt.toISOString(),
          lastEventAt: connection.lastEventAt?.toISOString() ?? null,
          webhookUrl: hookUrl(deps.env.APP_URL, connection.hookId),
        }
      : null,
    sales: sales.map((s) => ({
      ...s,
      createdAt: s.createdAt.toISOString(),
      outcomeLabel: TILL_SALE_OUTCOME_LABELS_FR[s.outcome] ?? s.outcome,
    })),
  };
}

const keyRefused = () =>
  new AppError("VALIDATION", {
    message: "zettle refused the key",
    userMessage:
      "Zettle refuse cette clé : vérifiez l'identifiant client et la clé (créée avec le droit READ:PURCHASE), ou créez-en une nouvelle.",
    fields: { apiKey: "Clé refusée par Zettle." },
  });
const zettleDown = () =>
  new AppError("UNAVAILABLE", {
    message: "zettle unavailable",
    userMessage: "Zettle ne répond pas pour l'instant. Réessayez dans quelques minutes.",
  });

/**
 * Connects (or reconnects) the shop's Zettle account: the key is checked by getting a token, the organisation
 * read, and PurchaseCreated subscribed to this shop's own address. A previous connection is replaced.
 */
export async function connectZettle(
  deps: Pick<Deps, "db" | "env" | "logger">,
  access: ShopAccess,
  input: z.output<typeof zettleConnectSchema>,
) {
  const config = zettleConfig(deps.env);
  const key = { clientId: input.clientId, apiKey: input.apiKey };
  const hookId = randomBytes(18).toString("base64url");
  const subscriptionUuid = uuidV1();
  const [owner] = await deps.db.select({ email: user.email }).from(user).where(eq(user.id, access.userId)).limit(1);
  let organizationUuid: string;
  let signingKey: string;
  try {
    organizationUuid = await zettleOrganization(config, key);
    ({ signingKey } = await createZettleSubscription(config, key, {
      uuid: subscriptionUuid,
      destination: hookUrl(deps.env.APP_URL, hookId),
      contactEmail: owner?.email ?? "",
    }));
  } catch (error) {
    if (error instanceof ZettleKeyRefused) throw keyRefused();
    deps.logger.warn("zettle connect failed", { shopId: access.shopId, error: String(error) });
    throw zettleDown();
  }
  const [previous] = await deps.db
    .select({
      clientId: tillConnections.clientId,
      apiKey: tillConnections.apiKey,
      uuid: tillConnections.subscriptionUuid,
    })
    .from(tillConnections)
    .where(eq(tillConnections.shopId, shopScope(access)))
    .limit(1);
  const values = {
    vendor: "zettle" as const,
    clientId: input.clientId,
    apiKey: input.apiKey,
    organizationUuid,
    subscriptionUuid,
    signingKey,
    hookId,
    status: "active" as const,
    createdBy: access.userId,
    createdAt: new Date(),
    lastEventAt: null,
  };
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(tillConnections)
      .values({ shopId: shopScope(access), ...values })
      .onConflictDoUpdate({ target: tillConnections.shopId, set: values });
    await recordAudit(tx, {
      actorId: access.userId,
      shopId: access.shopId,
      action: "till.connect",
      target: access.shopId,
      details: { vendor: "zettle", organizationUuid },
    });
  });
  if (previous && previous.uuid !== subscriptionUuid) {
    await deleteZettleSubscription(
      config,
      { clientId: previous.clientId, apiKey: previous.apiKey },
      previous.uuid,
    ).catch((error: unknown) =>
      deps.logger.warn("zettle unsubscribe failed", { shopId: access.shopId, error: String(error) }),
    );
  }
  return tillConnectionStatus(deps, access);
}

/** Disconnects: the subscription is removed at Zettle (best effort) and the key forgotten here. */
export async function disconnectTill(deps: Pick<Deps, "db" | "env" | "logger">, access: ShopAccess) {
  const [gone] = await deps.db.transaction(async (tx) => {
    const rows = await tx
      .delete(tillConnections)
      .where(eq(tillConnections.shopId, shopScope(access)))
      .returning({
        clientId: tillConnections.clientId,
        apiKey: tillConnections.apiKey,
        uuid: tillConnections.subscriptionUuid,
      });
    if (rows.length > 0) {
      await recordAudit(tx, {
        actorId: access.userId,
        shopId: access.shopId,
        action: "till.disconnect",
        target: access.shopId,
        details: { vendor: "zettle" },
      });
    }
    return rows;
  });
  if (!gone) throw new AppError("NOT_FOUND", { userMessage: "Aucune caisse n'est connectée." });
  await deleteZettleSubscription(
    zettleConfig(deps.env),
    { clientId: gone.clientId, apiKey: gone.apiKey },
    gone.uuid,
  ).catch((error: unknown) =>
    deps.logger.warn("zettle unsubscribe failed", { shopId: access.shopId, error: String(error) }),
  );
  return tillConnectionStatus(deps, access);
}

const unauthorised = () => new AppError("UNAUTHENTICATED", { message: "zettle event not signed by the shop's key" });

/**
 * An event Zettle pushed: checked against the connection's signing key, then a PurchaseCreated queues the job that
 * reads the purchase. Anything else signed (TestMessage, other events) is acknowledged and ignored.
 */
export async function receiveZettleEvent(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  hookId: string,
  event: z.output<typeof zettleEventSchema>,
  signature: string | undefined,
) {
  const [connection] = await deps.db
    .select({
      shopId: tillConnections.shopId,
      signingKey: tillConnections.signingKey,
      org: tillConnections.organizationUuid,
    })
    .from(tillConnections)
    .where(eq(tillConnections.hookId, hookId))
    .limit(1);
  if (!connection) throw new AppError("NOT_FOUND", { message: "unknown zettle hook" });
  const { payload, timestamp, eventName, organizationUuid } = event;
  if (eventName === "TestMessage") return { received: true };
  const payloadText = typeof payload === "string" ? payload : JSON.stringify(payload);
  if (
    !signature ||
    timestamp === undefined ||
    !zettleSignatureOk(connection.signingKey, timestamp, payloadText, signature)
  ) {
    throw unauthorised();
  }
  if (organizationUuid !== connection.org) throw unauthorised();
  await deps.db
    .update(tillConnections)
    .set({ lastEventAt: sql`now()` })
    .where(eq(tillConnections.shopId, connection.shopId));
  if (eventName !== "PurchaseCreated") return { received: true };
  const purchase = typeof payload === "string" ? safeJson(payload) : payload;
  const purchaseUuid =
    purchase && typeof purchase === "object" && "purchaseUuid" in purchase ? String(purchase.purchaseUuid) : "";
  if (!/^[0-9A-Za-z_-]{8,64}$/.test(purchaseUuid)) {
    throw new AppError("VALIDATION", { message: "purchase uuid", userMessage: "Évènement Zettle sans achat." });
  }
  await deps.jobs.send(
    "till.purchase",
    { shopId: connection.shopId, purchaseUuid },
    // Zettle may push the same purchase again: one job at a time per purchase.
    { singletonKey: `zettle:${connection.shopId}:${purchaseUuid}` },
  );
  return { received: true };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

type SaleRow = typeof tillSales.$inferInsert;

async function recordSale(deps: Pick<Deps, "db">, row: SaleRow) {
  await deps.db.insert(tillSales).values(row).onConflictDoNothing();
}

/**
 * The job: the purchase read from Zettle and handled once. A key Zettle no longer accepts marks the connection
 * « refusée » (the owner sees it) and ends; Zettle unavailable throws, and the engine tries again.
 */
export async function handleZettlePurchase(deps: Deps, data: { shopId: string; purchaseUuid: string }) {
  const [done] = await deps.db
    .select({ outcome: tillSales.outcome })
    .from(tillSales)
    .where(
      and(
        eq(tillSales.shopId, data.shopId),
        eq(tillSales.vendor, "zettle"),
        eq(tillSales.purchaseId, data.purchaseUuid),
      ),
    )
    .limit(1);
  if (done) return { outcome: done.outcome, replayed: true };
  const [connection] = await deps.db
    .select({ clientId: tillConnections.clientId, apiKey: tillConnections.apiKey })
    .from(tillConnections)
    .where(eq(tillConnections.shopId, data.shopId))
    .limit(1);
  if (!connection) return { outcome: "disconnected" };
  let purchase: ZettlePurchase | null;
  try {
    purchase = await zettlePurchase(zettleConfig(deps.env), connection, data.purchaseUuid);
  } catch (error) {
    if (!(error instanceof ZettleKeyRefused)) throw error;
    await deps.db.update(tillConnections).set({ status: "refused" }).where(eq(tillConnections.shopId, data.shopId));
    return { outcome: "key_refused" };
  }
  if (!purchase) return { outcome: "unknown_purchase" };
  const base = {
    shopId: data.shopId,
    vendor: "zettle",
    purchaseId: data.purchaseUuid,
    purchaseNumber: purchase.purchaseNumber === undefined ? null : String(purchase.purchaseNumber),
    amountCents: purchase.amount,
  };
  if (purchase.refund || purchase.amount < 0) return takeBack(deps, base, purchase.refundsPurchaseUUID1 ?? null);
  if (purchase.currency && purchase.currency !== "EUR") {
    await recordSale(deps, { ...base, kind: "sale", outcome: "currency" });
    return { outcome: "currency" };
  }
  return creditSale(deps, base, purchase);
}

type SaleBase = Pick<SaleRow, "shopId" | "vendor" | "purchaseId" | "purchaseNumber" | "amountCents">;

async function creditSale(deps: Deps, base: SaleBase, purchase: ZettlePurchase) {
  const code = customerCodeIn([...purchase.products.map((p) => p.comment), ...purchase.products.map((p) => p.name)]);
  const sale = async (outcome: string, extra: Partial<SaleRow> = {}) => {
    await recordSale(deps, { ...base, kind: "sale", outcome, ...extra });
    return { outcome };
  };
  if (!code) return sale("no_code");
  const missesKey = `personal-code:zettle:${base.shopId}`;
  const check = await consumeThrottle(deps.db, missesKey, CODE_MISSES.windowSeconds, CODE_MISSES.max);
  if (!check.allowed) return sale("throttled");
  const customer = await findByPersonalCode(deps.db, code);
  if (!customer) return sale("unknown_code");
  await refundThrottle(deps.db, missesKey);
  const [shop] = (
    await deps.db.execute<{ scan_uid: string }>(sql`select scan_uid from shops where id = ${base.shopId}`)
  ).rows;
  if (!shop) return { outcome: "no_shop" };
  try {
    const { answer, followUps } = await performScan(
      deps.database,
      { userId: customer.id, actorId: ACTOR },
      {
        scanUid: shop.scan_uid,
        token: null,
        poster: null,
        deviceId: null,
        idempotencyKey: `zettle-${base.purchaseId}`,
        amountCents: base.amountCents,
      },
      "till",
    );
    await emitVisitEvents(deps, answer, "till", followUps);
    return sale(answer.accepted ? "credited" : "refused", {
      userId: customer.id,
      points: answer.accepted ? answer.delta : 0,
      scanId: answer.scanId,
    });
  } catch (error) {
    if (error instanceof AppError && error.code === "VALIDATION") return sale("too_small", { userId: customer.id });
    if (error instanceof AppError && error.code === "FORBIDDEN") return sale("team", { userId: customer.id });
    throw error;
  }
}

/**
 * A refund: the sale it refunds gave points to a card; the refunded share of them leaves the card (an `adjustment`
 * entry, so the lifetime total follows), never more than the sale gave nor below zero. One card at a time.
 */
async function takeBack(deps: Deps, base: SaleBase, refundsPurchaseId: string | null) {
  return deps.db.transaction(async (tx) => {
    const refund = { ...base, kind: "refund" as const, refundsPurchaseId };
    const [sale] = refundsPurchaseId
      ? (
          await tx.execute<{
            user_id: string | null;
            points: number;
            amount_cents: number;
            card_id: string | null;
          }>(sql`
            select s.user_id, s.points, s.amount_cents,
              (select c.id from cards c where c.shop_id = s.shop_id and c.user_id = s.user_id) as card_id
            from till_sales s
            where s.shop_id = ${base.shopId} and s.vendor = ${base.vendor} and s.purchase_id = ${refundsPurchaseId}
              and s.kind = 'sale'`)
        ).rows
      : [];
    if (!sale?.card_id || sale.points <= 0) {
      await tx
        .insert(tillSales)
        .values({ ...refund, outcome: "nothing_to_take" })
        .onConflictDoNothing();
      return { outcome: "nothing_to_take" };
    }
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`till-refund:${sale.card_id}`}, 0))`);
    const [facts] = (
      await tx.execute<{ taken: number; balance: number }>(sql`
        select coalesce((select -sum(points) from till_sales where shop_id = ${base.shopId} and vendor = ${base.vendor}
                           and refunds_purchase_id = ${refundsPurchaseId}), 0)::int as taken,
               (select balance from cards where id = ${sale.card_id}) as balance`)
    ).rows;
    const points = refundTakesBack({
      salePoints: sale.points,
      saleAmountCents: sale.amount_cents,
      refundAmountCents: base.amountCents,
      alreadyTakenBack: facts?.taken ?? 0,
      balance: facts?.balance ?? 0,
    });
    const inserted = await tx
      .insert(tillSales)
      .values({
        ...refund,
        userId: sale.user_id,
        points: -points,
        outcome: points > 0 ? "taken_back" : "nothing_to_take",
      })
      .onConflictDoNothing()
      .returning({ purchaseId: tillSales.purchaseId });
    // Another process handled this refund first: nothing more.
    if (inserted.length === 0 || points === 0) return { outcome: points > 0 ? "taken_back" : "nothing_to_take" };
    await tx.execute(sql`
      insert into ledger_entries (card_id, shop_id, kind, delta, actor_id, reason, idempotency_key)
      values (${sale.card_id}, ${base.shopId}, 'adjustment', ${-points}, ${ACTOR},
        ${`Remboursement en caisse${base.purchaseNumber ? ` (ticket n° ${base.purchaseNumber})` : ""}`},
        ${`zettle-refund-${base.purchaseId}`})`);
    return { outcome: "taken_back", points };
  });
}
