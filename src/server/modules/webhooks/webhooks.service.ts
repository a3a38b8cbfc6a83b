import { createHmac, randomBytes } from "node:crypto";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { WEBHOOK_EVENT_LABELS_FR, type WebhookEvent, type webhookCreateSchema } from "../../../domain/schemas/till.ts";
import type { Db } from "../../db/client.ts";
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from "../../db/schema/index.ts";
import type { Env } from "../../env.ts";
import type { Deps } from "../../lib/context.ts";
import { checkDestination, type OutboundPolicy, outboundRequest } from "../../lib/outbound.ts";
import { refuseCappedInsert, type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/**
 * Signed webhooks (issue 29, ADR 0050). An owner subscribes an address to events; each event makes one delivery
 * row per subscribed address (unique per address and event), tried by the job engine (`webhooks.deliver`) until
 * the receiver answers 2xx, with the waits of WEBHOOK_RETRY_SECONDS between tries, each try in the delivery log.
 * Requests follow Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp`,
 * `webhook-signature: v1,<base64 HMAC-SHA256(secret, "{id}.{timestamp}.{body}")>` with a `whsec_` secret; they
 * leave through the outbound door (lib/outbound.ts, ADR 0031): a public name over https, or an origin the operator
 * trusts (WEBHOOK_TRUSTED_ORIGINS).
 */

const MAX_ENDPOINTS = 10;
const TIMEOUT_MS = 10_000;

function webhookPolicy(env: Pick<Env, "WEBHOOK_TRUSTED_ORIGINS">): OutboundPolicy {
  return {
    purpose: "webhook",
    hosts: ["*"],
    protocols: ["https:", "http:"],
    trustedOrigins: env.WEBHOOK_TRUSTED_ORIGINS,
  };
}

/** A destination the door lets through, and https unless the operator trusts its origin. */
function isAcceptedUrl(url: string, policy: OutboundPolicy): boolean {
  const checked = checkDestination(url, policy);
  if (!checked.ok) return false;
  return checked.destination.trusted || checked.destination.url.protocol === "https:";
}

/** Standard Webhooks' signature of one request. */
function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
}

const endpointDto = (e: typeof webhookEndpoints.$inferSelect) => ({
  id: e.id,
  url: e.url,
  events: e.events as WebhookEvent[],
  eventLabels: (e.events as WebhookEvent[]).map((v) => WEBHOOK_EVENT_LABELS_FR[v]),
  createdAt: e.createdAt.toISOString(),
});

export async function listWebhooks(db: Db, access: ShopAccess) {
  const rows = await db
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.shopId, shopScope(access)))
    .orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(endpointDto);
}

/** A new subscription; its `whsec_` secret is in this answer only. */
export async function createWebhook(
  deps: Pick<Deps, "db" | "env">,
  access: ShopAccess,
  input: z.output<typeof webhookCreateSchema>,
) {
  if (!isAcceptedUrl(input.url, webhookPolicy(deps.env))) {
    const message =
      "Adresse refusée : une adresse https avec un nom de domaine public (pas une adresse IP ni un réseau privé).";
    throw new AppError("VALIDATION", {
      message: "webhook url refused",
      userMessage: message,
      fields: { url: message },
    });
  }
  const secret = `whsec_${randomBytes(24).toString("base64")}`;
  const result = await deps.db.execute<{ id: string }>(sql`
    insert into webhook_endpoints (shop_id, url, events, secret, created_by)
    select s.id, ${input.url}, ${`{${input.events.join(",")}}`}::text[], ${secret}, ${access.userId}
    from shops s
    where s.id = ${shopScope(access)}
      and (select count(*) from webhook_endpoints w where w.shop_id = s.id) < ${MAX_ENDPOINTS}
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) return refuseCappedInsert(deps.db, access, `${MAX_ENDPOINTS} adresses au plus : supprimez-en une.`);
  const [row] = await deps.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  return { webhook: endpointDto(row!), secret };
}

export async function deleteWebhook(db: Db, access: ShopAccess, id: string) {
  const deleted = await db
    .delete(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.shopId, shopScope(access))))
    .returning({ id: webhookEndpoints.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", { userMessage: "Adresse introuvable." });
}

/** The delivery log of one address: its last 50 deliveries, each with every try. */
export async function listDeliveries(db: Db, access: ShopAccess, endpointId: string) {
  const [endpoint] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.shopId, shopScope(access))));
  if (!endpoint) throw new AppError("NOT_FOUND", { userMessage: "Adresse introuvable." });
  const deliveries = await db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(50);
  const attempts = deliveries.length
    ? await db
        .select()
        .from(webhookAttempts)
        .where(
          inArray(
            webhookAttempts.deliveryId,
            deliveries.map((d) => d.id),
          ),
        )
        .orderBy(webhookAttempts.attempt)
    : [];
  return deliveries.map((d) => ({
    id: d.id,
    eventId: d.eventId,
    type: d.eventType as WebhookEvent,
    typeLabel: WEBHOOK_EVENT_LABELS_FR[d.eventType as WebhookEvent] ?? d.eventType,
    status: d.status,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
    attempts: attempts
      .filter((a) => a.deliveryId === d.id)
      .map((a) => ({
        attempt: a.attempt,
        statusCode: a.statusCode,
        error: a.error,
        durationMs: a.durationMs,
        manual: a.manual,
        at: a.createdAt.toISOString(),
      })),
  }));
}

/* Events ---------------------------------------------------------------------------------------------------- */

/**
 * An event of a shop: a delivery for each address subscribed to it (once per address and event id, so an event
 * emitted twice is delivered once), then a job for each. Without the engine running (tests, a process that only
 * serves), the sweep (`webhooks.sweep`, every minute) sends them. Never throws: a webhook never fails the visit.
 */
async function emitWebhookEvent(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  shopId: string,
  type: WebhookEvent,
  eventId: string,
  data: Record<string, unknown>,
) {
  try {
    const payload = { type, timestamp: new Date().toISOString(), data };
    const result = await deps.db.execute<{ id: string }>(sql`
      insert into webhook_deliveries (endpoint_id, shop_id, event_id, event_type, payload)
      select w.id, w.shop_id, ${eventId}, ${type}, ${JSON.stringify(payload)}::jsonb
      from webhook_endpoints w where w.shop_id = ${shopId} and ${type} = any(w.events)
      on conflict do nothing
      returning id`);
    if (deps.jobs.started) {
      for (const row of result.rows) await deps.jobs.send("webhooks.deliver", { deliveryId: row.id, attempt: 1 });
    }
  } catch (error) {
    deps.logger.warn("webhooks: event not recorded", {
      type,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** The events a shop's addresses subscribe to (one indexed read), so most visits emit nothing. */
async function subscribedEvents(db: Db, shopId: string): Promise<Set<string>> {
  const { rows } = await db.execute<{ event: string }>(
    sql`select distinct e as event from webhook_endpoints w, unnest(w.events) e where w.shop_id = ${shopId}`,
  );
  return new Set(rows.map((r) => r.event));
}

type VisitAnswer = {
  scanId: string;
  accepted: boolean;
  delta: number;
  amountCents: number | null;
  scannedAt: string;
  shop: { id: string } | null;
  card: { id: string; balance: number; lifetime: number } | null;
};

/**
 * After a credited visit (a scan, a receipt, the counter, a till): `visit.credited`, and `customer.joined` when it
 * was the card's first visit. The event ids are the scan's and the card's: a replayed answer emits nothing new.
 * `followUps.webhooks`: whether the shop has addresses, answered by the scan's own statement (performScan): when
 * false, nothing is read.
 */
export async function emitVisitEvents(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  answer: VisitAnswer,
  method: string,
  followUps: { webhooks: boolean },
) {
  if (!followUps.webhooks || !answer.accepted || !answer.shop || !answer.card) return;
  const shopId = answer.shop.id;
  const card = answer.card;
  const wanted = await subscribedEvents(deps.db, shopId).catch(() => new Set<string>());
  if (wanted.size === 0) return;
  if (wanted.has("customer.joined")) {
    const { rows } = await deps.db.execute<{ visits: number; created_at: string }>(
      sql`select visits, created_at from cards where id = ${card.id}`,
    );
    if (rows[0]?.visits === 1) {
      await emitWebhookEvent(deps, shopId, "customer.joined", `joined_${card.id}`, {
        cardId: card.id,
        joinedAt: new Date(rows[0].created_at).toISOString(),
      });
    }
  }
  if (wanted.has("visit.credited")) {
    await emitWebhookEvent(deps, shopId, "visit.credited", answer.scanId, {
      visitId: answer.scanId,
      cardId: card.id,
      points: answer.delta,
      amountCents: answer.amountCents,
      balance: card.balance,
      method,
      at: answer.scannedAt,
    });
  }
}

/* Deliveries ------------------------------------------------------------------------------------------------ */

type Attempt = { attempt: number; ok: boolean; statusCode: number | null; error: string | null };

/**
 * Try `deliveryId` as attempt number `attempt` (a job's), or as the next one (`manual`, « Renvoyer »). The attempt
 * is claimed by moving the delivery's count from attempt - 1, so two processes never send the same try; a job for
 * an attempt already made does nothing.
 */
async function attemptDelivery(
  deps: Pick<Deps, "db" | "env">,
  deliveryId: string,
  which: { attempt: number } | { manual: true },
): Promise<Attempt | null> {
  const manual = "manual" in which;
  const claimed = await deps.db.execute<{
    attempts: number;
    event_id: string;
    payload: unknown;
    url: string;
    secret: string;
  }>(sql`
    update webhook_deliveries d set attempts = d.attempts + 1, last_attempt_at = now()
    from webhook_endpoints w
    where d.id = ${deliveryId} and w.id = d.endpoint_id
      and ${manual ? sql`true` : sql`d.status = 'pending' and d.attempts = ${"attempt" in which ? which.attempt - 1 : 0}`}
    returning d.attempts, d.event_id, d.payload, w.url, w.secret`);
  const row = claimed.rows[0];
  if (!row) return null;
  const body = JSON.stringify(row.payload);
  const id = `msg_${row.event_id}`;
  const timestamp = Math.floor(Date.now() / 1000);
  const started = Date.now();
  let statusCode: number | null = null;
  let error: string | null = null;
  try {
    const response = await outboundRequest(row.url, webhookPolicy(deps.env), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "Fidele-Webhooks/1",
        "webhook-id": id,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": signWebhook(row.secret, id, timestamp, body),
      },
      body,
      timeoutMs: TIMEOUT_MS,
    });
    statusCode = response.status;
  } catch (e) {
    // Said for the owner's log, never the far side's own words (ADR 0031).
    error = e instanceof Error && e.name === "OutboundRefused" ? "Adresse refusée" : "Pas de réponse";
  }
  const ok = statusCode !== null && statusCode >= 200 && statusCode < 300;
  await deps.db.insert(webhookAttempts).values({
    deliveryId,
    attempt: row.attempts,
    statusCode,
    error,
    durationMs: Date.now() - started,
    manual,
  });
  if (ok) {
    await deps.db
      .update(webhookDeliveries)
      .set({ status: "delivered", deliveredAt: sql`coalesce(${webhookDeliveries.deliveredAt}, now())` })
      .where(eq(webhookDeliveries.id, deliveryId));
  } else if (!manual && row.attempts > deps.env.WEBHOOK_RETRY_SECONDS.length) {
    await deps.db.update(webhookDeliveries).set({ status: "failed" }).where(eq(webhookDeliveries.id, deliveryId));
  }
  return { attempt: row.attempts, ok, statusCode, error };
}

/** The job: one try, and the next one queued after its wait when it failed (the delivery stays pending). */
export async function runDeliveryJob(deps: Deps, data: { deliveryId: string; attempt: number }) {
  const result = await attemptDelivery(deps, data.deliveryId, { attempt: data.attempt });
  if (!result || result.ok) return result;
  const wait = deps.env.WEBHOOK_RETRY_SECONDS[result.attempt - 1];
  if (wait === undefined) return result;
  await deps.jobs.send(
    "webhooks.deliver",
    { deliveryId: data.deliveryId, attempt: result.attempt + 1 },
    { startAfter: wait },
  );
  return result;
}

/** « Renvoyer »: one more try now, by the owner, whatever the delivery's state; its result. */
export async function resendDelivery(
  deps: Pick<Deps, "db" | "env">,
  access: ShopAccess,
  endpointId: string,
  deliveryId: string,
) {
  const [found] = await deps.db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        eq(webhookDeliveries.id, deliveryId),
        eq(webhookDeliveries.endpointId, endpointId),
        eq(webhookDeliveries.shopId, shopScope(access)),
      ),
    );
  if (!found) throw new AppError("NOT_FOUND", { userMessage: "Envoi introuvable." });
  const result = await attemptDelivery(deps, deliveryId, { manual: true });
  if (!result) throw new AppError("NOT_FOUND", { userMessage: "Envoi introuvable." });
  return result;
}

/** Deliveries never tried (made while no engine ran): their first job, from the minute's sweep. */
export async function sweepDeliveries(deps: Deps) {
  const { rows } = await deps.db.execute<{ id: string }>(sql`
    select id from webhook_deliveries where status = 'pending' and attempts = 0
      and created_at < now() - interval '10 seconds' order by created_at limit 200`);
  for (const row of rows) await deps.jobs.send("webhooks.deliver", { deliveryId: row.id, attempt: 1 });
  // A process that died between a failed try and queueing the next one left its delivery pending with no job:
  // past that try's wait (and a margin), with no job waiting for it, the next try is queued here.
  const delays = `{${deps.env.WEBHOOK_RETRY_SECONDS.join(",")}}`;
  const orphans = await deps.db.execute<{ id: string; attempts: number }>(sql`
    select d.id, d.attempts from webhook_deliveries d
    where d.status = 'pending' and d.attempts between 1 and ${deps.env.WEBHOOK_RETRY_SECONDS.length}
      and d.last_attempt_at < now() - make_interval(secs => (${delays}::int[])[d.attempts] + ${ORPHAN_MARGIN_SECONDS})
      and not exists (select 1 from pgboss.job j where j.name = 'webhooks.deliver' and j.data->>'deliveryId' = d.id
                        and j.state in ('created', 'retry', 'active'))
    order by d.last_attempt_at limit 200`);
  for (const row of orphans.rows) {
    await deps.jobs.send("webhooks.deliver", { deliveryId: row.id, attempt: row.attempts + 1 });
  }
  return { queued: rows.length, resumed: orphans.rows.length };
}

/** How long after a try's wait a delivery with no job is deemed orphaned (its job's own retries come first). */
const ORPHAN_MARGIN_SECONDS = 120;

/** After a reward was handed over (the counter's desk or a till): `reward.redeemed`, once per redemption. */
export async function emitRedeemedEvent(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  shopId: string,
  redemption: { id: string; title: string },
) {
  await emitWebhookEvent(deps, shopId, "reward.redeemed", redemption.id, {
    redemptionId: redemption.id,
    title: redemption.title,
    at: new Date().toISOString(),
  });
}

/** A lot won at one of the shop's games (a wheel's spin or a draw): `contest.won`, once per winning. */
export async function emitContestWon(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  shopId: string,
  won: { winningId: string; contestId: string; contestTitle: string; lotName: string },
) {
  await emitWebhookEvent(deps, shopId, "contest.won", won.winningId, { ...won, at: new Date().toISOString() });
}
