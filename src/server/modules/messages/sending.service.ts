import { sql } from "drizzle-orm";
import { DEFAULT_PUSH_CAP, PUSH_CAP_WINDOW_DAYS } from "../../../domain/messages/frequency-cap.ts";
import { buildPushPayload } from "../../../domain/messages/payload.ts";
import type { Database, Db } from "../../db/client.ts";
import { announce } from "../../lib/live.ts";
import type { Logger } from "../../lib/logger.ts";
import { type AudienceSpec, recipientsSql } from "./audience.ts";
import type { PushSender } from "./push.ts";

/**
 * Sending, resumable and idempotent: `startSending` freezes the audience into
 * message_deliveries (one row per recipient and channel, unique), then
 * `processMessageBatch` claims pending rows with FOR UPDATE SKIP LOCKED and marks each
 * delivered, failed or skipped. Two processes never claim the same row; rows of a
 * killed process stay pending (in-app) or are claimed again after CLAIM_LEASE (push).
 * Pausing a message stops its batches at the next claim.
 */

/** A push claimed longer ago than this by a process that died is claimed again. */
export const CLAIM_LEASE_SECONDS = 120;
/** How many pushes one process has in flight at once. */
export const PUSH_CONCURRENCY = 16;
/** Pushes are claimed this many at a time, so a claim is done long before its lease runs out. */
const PUSH_CLAIM = PUSH_CONCURRENCY * 2;

export const inboxKey = (userId: string) => `inbox:${userId}`;
export const progressKey = (messageId: string) => `message:${messageId}`;

type MessageHead = {
  id: string;
  shop_id: string | null;
  audience: "customers" | "all_shoppers" | "all_owners";
  segment: unknown;
  with_push: boolean;
  is_promotional: boolean;
  title: string;
  body: string;
  image_url: string | null;
  link_url: string | null;
  status: string;
};

function specOf(m: MessageHead): AudienceSpec {
  if (m.audience === "customers") return { kind: "customers", shopId: m.shop_id!, segment: m.segment as never };
  return { kind: m.audience };
}

/**
 * Freezes the audience of a scheduled message that is due (or of one sent now) and
 * moves it to "sending". Only one caller wins (the status update locks the row);
 * the inserts ignore rows that exist. Returns whether this call started it.
 */
export async function startSending(db: Db, messageId: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const started = await tx.execute<MessageHead>(sql`
      update messages set status = 'sending', started_at = now()
      where id = ${messageId} and status = 'scheduled' and (scheduled_at is null or scheduled_at <= now())
      returning id, shop_id, audience, segment, with_push, is_promotional, title, body, image_url, link_url, status`);
    const message = started.rows[0];
    if (!message) return false;
    const spec = specOf(message);
    await tx.execute(sql`
      insert into message_deliveries (message_id, user_id, channel)
      select ${messageId}, r.user_id, 'inapp' from (${recipientsSql(spec, "inapp")}) r
      on conflict do nothing`);
    if (message.with_push) {
      await tx.execute(sql`
        insert into message_deliveries (message_id, user_id, channel)
        select ${messageId}, r.user_id, 'push' from (${recipientsSql(spec, "push")}) r
        on conflict do nothing`);
    }
    await tx.execute(sql`
      update messages set total = (select count(*) from message_deliveries d where d.message_id = ${messageId})
      where id = ${messageId}`);
    return true;
  });
}

export type BatchResult = { delivered: number; failed: number; skipped: number; deferred: number; remaining: number };

/** Push services that asked us to wait (429/503 Retry-After), by origin: until when. */
const backoff = new Map<string, number>();

async function runPool<T>(items: T[], size: number, work: (item: T) => Promise<void>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(size, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/**
 * Delivers up to `limit` pending rows of one message (in-app, then push) and marks
 * each. Safe to run in several processes at once. The job engine's worker calls this
 * until `remaining` is 0 (then `finishIfDone`).
 */
export async function processMessageBatch({
  db,
  database,
  messageId,
  limit = 200,
  push,
  logger,
  leaseSeconds = CLAIM_LEASE_SECONDS,
}: {
  db: Db;
  database?: Database;
  messageId: string;
  limit?: number;
  push: PushSender | null;
  logger?: Logger;
  /** After this, a push claimed by a process that died is claimed again. */
  leaseSeconds?: number;
}): Promise<BatchResult> {
  const result: BatchResult = { delivered: 0, failed: 0, skipped: 0, deferred: 0, remaining: 0 };
  const sending = sql`exists (select 1 from messages m where m.id = ${messageId} and m.status = 'sending')`;

  // In-app: delivering is the update itself (the inbox reads delivered rows).
  const inapp = await db.execute<{ user_id: string }>(sql`
    update message_deliveries set status = 'delivered', delivered_at = now()
    where id in (
      select id from message_deliveries
      where message_id = ${messageId} and channel = 'inapp' and status = 'pending' and ${sending}
      order by id limit ${limit} for update skip locked)
    returning user_id`);
  result.delivered += inapp.rows.length;
  if (database) for (const r of inapp.rows) announce(database, inboxKey(r.user_id));

  // Push: claimed a few at a time (the HTTP calls happen outside any transaction), then marked one by one.
  let room = limit - inapp.rows.length;
  let head: MessageHead | undefined;
  while (room > 0) {
    const claimed = await db.execute<{ id: string; user_id: string }>(sql`
      update message_deliveries set status = 'claimed', claimed_at = now()
      where id in (
        select id from message_deliveries
        where message_id = ${messageId} and channel = 'push' and ${sending}
          and ((status = 'pending' and (not_before is null or not_before <= now()))
            or (status = 'claimed' and claimed_at < now() - make_interval(secs => ${leaseSeconds})))
        order by id limit ${Math.min(room, PUSH_CLAIM)} for update skip locked)
      returning id, user_id`);
    if (claimed.rows.length === 0) break;
    room -= claimed.rows.length;
    head ??= (
      await db.execute<MessageHead>(sql`
        select id, shop_id, audience, segment, with_push, is_promotional, title, body, image_url, link_url, status
        from messages where id = ${messageId}`)
    ).rows[0]!;
    const message = head;
    const payload = buildPushPayload({
      id: messageId,
      title: message.title,
      body: message.body,
      image: message.image_url,
    });
    const capped = message.shop_id !== null && message.is_promotional;
    // RFC 8030 §5.4: a copy sent again (a process died mid-send) replaces one still queued at the push service,
    // and the service worker shows it under the message's tag, so a phone never shows a message twice.
    const topic = messageId.replace(/-/g, "");
    await runPool(claimed.rows, PUSH_CONCURRENCY, async (row) => {
      const outcome = await deliverPush(db, { row, shopId: message.shop_id, capped, payload, push, topic });
      result[outcome]++;
    });
  }

  const [left] = (
    await db.execute<{ n: number }>(sql`
      select count(*)::int as n from message_deliveries where message_id = ${messageId} and status in ('pending', 'claimed')`)
  ).rows;
  result.remaining = Number(left?.n ?? 0);
  if (database) announce(database, progressKey(messageId));
  if (logger && result.failed > 0) logger.warn("message deliveries failed", { messageId, failed: result.failed });
  return result;
}

type Outcome = "delivered" | "failed" | "skipped" | "deferred";

async function mark(db: Db, id: string, status: "delivered" | "failed" | "skipped", detail: string | null) {
  await db.execute(sql`
    update message_deliveries set status = ${status}, detail = ${detail},
      delivered_at = case when ${status} = 'delivered' then now() else delivered_at end
    where id = ${id} and status = 'claimed'`);
}

async function deliverPush(
  db: Db,
  {
    row,
    shopId,
    capped,
    payload,
    push,
    topic,
  }: {
    row: { id: string; user_id: string };
    shopId: string | null;
    capped: boolean;
    payload: string;
    push: PushSender | null;
    topic: string;
  },
): Promise<Outcome> {
  if (!push) {
    await mark(db, row.id, "skipped", "push disabled");
    return "skipped";
  }
  if (capped) {
    const [sent] = (
      await db.execute<{ n: number }>(sql`
        select count(*)::int as n from message_deliveries d join messages m on m.id = d.message_id
        where d.user_id = ${row.user_id} and d.channel = 'push' and d.status = 'delivered'
          and m.shop_id = ${shopId} and m.is_promotional
          and d.delivered_at > now() - make_interval(days => ${PUSH_CAP_WINDOW_DAYS})`)
    ).rows;
    if (Number(sent?.n ?? 0) >= DEFAULT_PUSH_CAP) {
      await mark(db, row.id, "skipped", "frequency cap");
      return "skipped";
    }
  }
  const devices = (
    await db.execute<{ id: string; endpoint: string; p256dh: string; auth: string }>(sql`
      select id, endpoint, p256dh, auth from push_subscriptions where user_id = ${row.user_id}`)
  ).rows;
  if (devices.length === 0) {
    await mark(db, row.id, "skipped", "no device");
    return "skipped";
  }
  let delivered = false;
  let waitMs = 0;
  const errors: string[] = [];
  for (const device of devices) {
    const origin = new URL(device.endpoint).origin;
    const until = backoff.get(origin) ?? 0;
    if (until > Date.now()) {
      waitMs = Math.max(waitMs, until - Date.now());
      continue;
    }
    const outcome = await push.send(device, payload, { urgency: "normal", topic });
    if (outcome.ok) delivered = true;
    else if (outcome.gone) await removeSubscription(db, device.id);
    else if (outcome.retryAfterMs !== null) {
      backoff.set(origin, Date.now() + outcome.retryAfterMs);
      waitMs = Math.max(waitMs, outcome.retryAfterMs);
    } else errors.push(outcome.error);
  }
  if (delivered) {
    await mark(db, row.id, "delivered", null);
    return "delivered";
  }
  if (waitMs > 0) {
    // Honour Retry-After: back to pending, not claimable before then.
    await db.execute(sql`
      update message_deliveries set status = 'pending', claimed_at = null,
        not_before = now() + make_interval(secs => ${waitMs / 1000})
      where id = ${row.id} and status = 'claimed'`);
    return "deferred";
  }
  await mark(db, row.id, "failed", errors.join("; ").slice(0, 500) || "subscription gone");
  return "failed";
}

export async function removeSubscription(db: Db, id: string) {
  await db.execute(sql`delete from push_subscriptions where id = ${id}`);
}

/** "sent" once no row is left to deliver. */
export async function finishIfDone(db: Db, messageId: string): Promise<boolean> {
  const done = await db.execute(sql`
    update messages set status = 'sent', finished_at = now()
    where id = ${messageId} and status = 'sending'
      and not exists (select 1 from message_deliveries d where d.message_id = ${messageId} and d.status in ('pending', 'claimed'))
    returning id`);
  return done.rows.length > 0;
}

/** Every message whose turn has come: due scheduled ones are started, then those sending are worked on. */
export async function runDueMessages(
  deps: { db: Db; database: Database; logger?: Logger },
  push: PushSender | null,
  options: { batch?: number; budgetMs?: number } = {},
): Promise<number> {
  const { db } = deps;
  const due = await db.execute<{ id: string }>(sql`
    select id from messages where status = 'scheduled' and scheduled_at <= now() order by scheduled_at limit 20`);
  for (const m of due.rows) await startSending(db, m.id);
  const sending = await db.execute<{ id: string }>(
    sql`select id from messages where status = 'sending' order by started_at limit 20`,
  );
  const deadline = Date.now() + (options.budgetMs ?? 5000);
  let worked = 0;
  for (const m of sending.rows) {
    for (;;) {
      const r = await processMessageBatch({ ...deps, messageId: m.id, limit: options.batch ?? 200, push });
      worked += r.delivered + r.failed + r.skipped;
      if (r.remaining === 0) {
        await finishIfDone(db, m.id);
        break;
      }
      if (r.delivered + r.failed + r.skipped === 0 || Date.now() > deadline) break;
    }
  }
  return worked;
}

/**
 * Until the job engine takes this over: a loop in the server process that runs due
 * messages every second (woken at once by `wakeSender` after a send in this process).
 */
let wake: (() => void) | null = null;
export function wakeSender() {
  wake?.();
}

export function startMessageSender(
  deps: { db: Db; database: Database; logger: Logger },
  push: PushSender | null,
  intervalMs = 1000,
): () => void {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  const loop = async () => {
    timer = null;
    try {
      await runDueMessages(deps, push);
    } catch (error) {
      if (!stopped)
        deps.logger.error("message sender failed", { error: error instanceof Error ? error.message : String(error) });
    }
    if (!stopped) timer = setTimeout(loop, intervalMs);
  };
  wake = () => {
    if (timer) {
      clearTimeout(timer);
      timer = setTimeout(loop, 0);
    }
  };
  timer = setTimeout(loop, intervalMs);
  return () => {
    stopped = true;
    wake = null;
    if (timer) clearTimeout(timer);
  };
}
