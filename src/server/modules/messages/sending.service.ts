import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";
import { announce } from "../../lib/live.ts";
import { FREQUENCY_CAP_DETAIL } from "../../../domain/messages/frequency-cap.ts";
import { type AudienceSpec, recipientsSql } from "./audience.ts";
import type { ChannelContext, ChannelDriver, ChannelOutcome, MessageForChannel } from "./channels/driver.ts";
import { CHANNEL_DRIVERS, CHANNEL_FLAGS } from "./channels/drivers.ts";
import { capRefusal, withinRecipientCapSql } from "./frequency-cap.ts";
import { pace, unpace } from "./channels/pacing.ts";

/**
 * The sending engine (ADR 0021, 0023), run by the job engine (jobs/messages-send.ts).
 * `startSending` freezes the audience into message_deliveries (one row per recipient and
 * channel, unique); `processMessageBatch` delivers in-app rows by one UPDATE and hands
 * the rows of every outward channel to its driver (drivers.ts), a few at a time.
 *
 * Exactly once: a row is claimed (status "claimed", claimed_at) right before its driver is
 * called and marked with the outcome right after. While a process works, it renews the
 * claims it holds (a heartbeat every quarter of the lease), so a live process never loses
 * one. A row still claimed after its lease belonged to a process that died mid-send:
 * nobody knows whether it left, so it is marked failed ("interrupted"), never sent again.
 * Pausing a message stops the claims at once (they require the message to be sending).
 */

export const inboxKey = (userId: string) => `inbox:${userId}`;
export const progressKey = (messageId: string) => `message:${messageId}`;

/** What an interrupted delivery says (failed; shown with the failed ones in /admin/message). */
export const INTERRUPTED = "interrupted";

type MessageHead = MessageForChannel & {
  audience: "customers" | "all_shoppers" | "all_owners" | "occasions" | "review_requests";
  segment: unknown;
  with_push: boolean;
  with_email: boolean;
  with_sms: boolean;
  kind: "message" | "newsletter" | "automation";
  status: string;
};

function specOf(m: MessageHead): AudienceSpec {
  if (m.audience === "occasions" || m.audience === "review_requests")
    return { kind: m.audience, shopId: m.shop_id!, messageId: m.id };
  if (m.audience === "customers") return { kind: "customers", shopId: m.shop_id!, segment: m.segment as never };
  return { kind: m.audience };
}

async function messageHead(db: Db, messageId: string): Promise<MessageHead | undefined> {
  const rows = await db.execute<MessageHead>(sql`select * from messages where id = ${messageId}`);
  return rows.rows[0];
}

/**
 * Freezes the audience of a scheduled message that is due (or of one sent now) and
 * moves it to "sending". Only one caller wins (the status update locks the row);
 * the inserts ignore rows that exist. Returns whether this call started it.
 * Outward channels: those whose flag the message has and whose driver is registered.
 */
export async function startSending(
  db: Db,
  messageId: string,
  drivers: readonly ChannelDriver[] = CHANNEL_DRIVERS,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const started = await tx.execute<MessageHead>(sql`
      update messages set status = 'sending', started_at = now()
      where id = ${messageId} and status = 'scheduled' and (scheduled_at is null or scheduled_at <= now())
      returning *`);
    const message = started.rows[0];
    if (!message) return false;
    const spec = specOf(message);
    // A newsletter is an e-mail only (ADR 0024); every other message is in the inbox too.
    if (message.kind !== "newsletter") {
      await tx.execute(sql`
        insert into message_deliveries (message_id, user_id, channel)
        select ${messageId}, r.user_id, 'inapp' from (${recipientsSql(spec, "inapp")}) r
        on conflict do nothing`);
    }
    for (const driver of drivers) {
      if (!message[CHANNEL_FLAGS[driver.channel]]) continue;
      await tx.execute(sql`
        insert into message_deliveries (message_id, user_id, channel)
        select ${messageId}, r.user_id, ${driver.channel} from (${recipientsSql(spec, driver.channel)}) r
        on conflict do nothing`);
    }
    await tx.execute(sql`
      update messages set total = (select count(*) from message_deliveries d where d.message_id = ${messageId})
      where id = ${messageId}`);
    return true;
  });
}

type BatchResult = {
  delivered: number;
  failed: number;
  skipped: number;
  deferred: number;
  /** Of the failed: claims found past their lease (their process died mid-send). */
  interrupted: number;
  /** Rows still pending or claimed. */
  remaining: number;
  /** The message's status when the batch started (nothing is claimed unless "sending"). */
  status: string | null;
};

type BatchOptions = {
  /** Rows handled at most by this call (in-app and outward together). */
  limit?: number;
  /** Seconds after which a claim is deemed its dead process's (default: env MESSAGES_LEASE_SECONDS). */
  leaseSeconds?: number;
  drivers?: readonly ChannelDriver[];
  /** Epoch ms after which no more rows are claimed (those in flight finish): a job's time budget. */
  deadline?: number;
  /** The drivers' clock (ChannelContext.now): tests inject one (SMS send window). */
  now?: () => Date;
  /** Aborted: no more rows are claimed (the engine is stopping); those in flight finish and are marked. */
  signal?: AbortSignal;
};

/**
 * Claims older than the lease: their process died while the driver was (maybe) sending.
 * Marked failed, never claimed again. Returns how many.
 */
export async function markInterrupted(db: Db, messageId: string, leaseSeconds: number): Promise<number> {
  const rows = await db.execute<{ id: string }>(sql`
    update message_deliveries set status = 'failed', detail = ${INTERRUPTED}
    where message_id = ${messageId} and status = 'claimed'
      and claimed_at < now() - make_interval(secs => ${leaseSeconds})
    returning id`);
  return rows.rows.length;
}

/**
 * Delivers up to `limit` rows of one message (in-app, then each registered channel)
 * and marks each. Safe to run in several processes at once.
 */
export async function processMessageBatch(
  deps: Deps,
  messageId: string,
  options: BatchOptions = {},
): Promise<BatchResult> {
  const { db, database, logger } = deps;
  const leaseSeconds = options.leaseSeconds ?? deps.env.MESSAGES_LEASE_SECONDS;
  const drivers = options.drivers ?? CHANNEL_DRIVERS;
  const limit = options.limit ?? 200;
  const result: BatchResult = {
    delivered: 0,
    failed: 0,
    skipped: 0,
    deferred: 0,
    interrupted: 0,
    remaining: 0,
    status: null,
  };
  const message = await messageHead(db, messageId);
  if (!message) return result;
  result.status = message.status;

  result.interrupted = await markInterrupted(db, messageId, leaseSeconds);
  result.failed += result.interrupted;
  if (result.interrupted > 0) {
    logger.warn("message deliveries interrupted (their process died mid-send): marked failed, not resent", {
      messageId,
      interrupted: result.interrupted,
    });
  }

  const sending = sql`exists (select 1 from messages m where m.id = ${messageId} and m.status = 'sending')`;
  const cap = deps.env.MESSAGES_RECIPIENT_PER_DAY;
  // In-app: delivering is the update itself (the inbox reads delivered rows); over the
  // recipient's cap across channels (frequency-cap.ts) the row is skipped instead.
  const inapp = await db.execute<{ user_id: string; status: string }>(sql`
    with batch as (
      select d.id, ${withinRecipientCapSql(message, sql`d.user_id`, cap)} as ok from message_deliveries d
      where d.message_id = ${messageId} and d.channel = 'inapp' and d.status = 'pending' and ${sending}
      order by d.id limit ${limit} for update skip locked)
    update message_deliveries md set
      status = case when b.ok then 'delivered' else 'skipped' end,
      delivered_at = case when b.ok then now() end,
      detail = case when b.ok then null else ${FREQUENCY_CAP_DETAIL} end
    from batch b where md.id = b.id
    returning md.user_id, md.status`);
  for (const r of inapp.rows) {
    if (r.status !== "delivered") {
      result.skipped++;
      continue;
    }
    result.delivered++;
    announce(database, inboxKey(r.user_id));
  }

  let room = limit - inapp.rows.length;
  const ctx: ChannelContext = { db, logger, now: options.now ?? (() => new Date()), deps };
  for (const driver of drivers) {
    if (room <= 0) break;
    if ((options.deadline !== undefined && Date.now() > options.deadline) || options.signal?.aborted) break;
    room -= await workChannel(ctx, driver, message, {
      room,
      leaseSeconds,
      sending,
      result,
      deadline: options.deadline,
      signal: options.signal,
    });
  }

  const [left] = (
    await db.execute<{ n: number }>(sql`
      select count(*)::int as n from message_deliveries where message_id = ${messageId} and status in ('pending', 'claimed')`)
  ).rows;
  result.remaining = Number(left?.n ?? 0);
  announce(database, progressKey(messageId));
  if (result.failed > result.interrupted) {
    logger.warn("message deliveries failed", { messageId, failed: result.failed - result.interrupted });
  }
  return result;
}

/** How long a delivery is tried again after transient failures (an SMTP 4xx, a push service's 429), counted from
 * the moment its message started sending; past it, the next deferral fails the delivery (ADR 0023). */
export const DEFERRAL_LIMIT_HOURS = 24;

/** Writes a delivery's outcome; answers the status it got (a deferral past the limit is a failure). */
async function mark(db: Db, id: string, outcome: ChannelOutcome, now: Date): Promise<ChannelOutcome["status"]> {
  if (outcome.status === "deferred") {
    const [row] = (
      await db.execute<{ status: string }>(sql`
        update message_deliveries d set
          status = case when m.started_at < ${now.toISOString()}::timestamptz - make_interval(hours => ${DEFERRAL_LIMIT_HOURS})
            then 'failed' else 'pending' end,
          detail = case when m.started_at < ${now.toISOString()}::timestamptz - make_interval(hours => ${DEFERRAL_LIMIT_HOURS})
            then ${`still failing after ${DEFERRAL_LIMIT_HOURS} hours of retries`} else d.detail end,
          claimed_at = null, not_before = ${outcome.notBefore.toISOString()}::timestamptz
        from messages m
        where d.id = ${id} and d.status = 'claimed' and m.id = d.message_id
        returning d.status`)
    ).rows;
    return row?.status === "failed" ? "failed" : "deferred";
  }
  const detail = outcome.status === "delivered" ? null : outcome.detail.slice(0, 500);
  await db.execute(sql`
    update message_deliveries set status = ${outcome.status}, detail = ${detail},
      delivered_at = case when ${outcome.status} = 'delivered' then now() else delivered_at end
    where id = ${id} and status = 'claimed'`);
  return outcome.status;
}

/**
 * One outward channel of one message: a pool of `driver.concurrency` deliveries in
 * flight, refilled as they finish (a claim is taken only when half the pool is free,
 * so each row waits for its driver a few milliseconds at most). Returns rows handled.
 */
async function workChannel(
  ctx: ChannelContext,
  driver: ChannelDriver,
  message: MessageHead,
  {
    room,
    leaseSeconds,
    sending,
    result,
    deadline = Number.POSITIVE_INFINITY,
    signal,
  }: {
    room: number;
    leaseSeconds: number;
    sending: SQL;
    result: BatchResult;
    deadline?: number;
    signal?: AbortSignal;
  },
): Promise<number> {
  const { db } = ctx;
  // The operator's rate may come from the environment (EMAIL_RATE_PER_SECOND).
  const rate = typeof driver.ratePerSecond === "function" ? driver.ratePerSecond(ctx.deps.env) : driver.ratePerSecond;
  const claimable = sql`message_id = ${message.id} and channel = ${driver.channel} and status = 'pending'
    and (not_before is null or not_before <= now()) and ${sending}`;
  const any = await db.execute(sql`select 1 from message_deliveries where ${claimable} limit 1`);
  if (any.rows.length === 0) return 0;
  // Before any claim: a claimed row must reach its driver at once.
  const prepared = driver.prepare ? await driver.prepare(ctx, message) : undefined;

  const inflight = new Map<string, Promise<void>>();
  let handled = 0;
  let exhausted = false;
  let failure: unknown = null;
  const heartbeat = setInterval(
    () => {
      if (inflight.size === 0) return;
      const ids = [...inflight.keys()];
      db.execute(sql`
        update message_deliveries set claimed_at = now()
        where id in (${sql.join(
          ids.map((id) => sql`${id}`),
          sql`, `,
        )}) and status = 'claimed'`).catch((error: unknown) =>
        ctx.logger?.warn("message claims: heartbeat failed", { error: String(error) }),
      );
    },
    Math.max(250, (leaseSeconds * 1000) / 4),
  );
  heartbeat.unref?.();

  const deliverOne = async (row: { id: string; user_id: string }) => {
    let outcome: ChannelOutcome;
    try {
      const capped = await capRefusal(
        db,
        message,
        row.user_id,
        driver.channel,
        ctx.deps.env.MESSAGES_RECIPIENT_PER_DAY,
      );
      outcome = capped ? { status: "skipped", detail: capped } : await driver.deliver(ctx, message, row, prepared);
    } catch (error) {
      // A driver must not throw for a recipient; when it does, whether it sent is unknown: failed, not retried.
      const detail = error instanceof Error ? error.message : String(error);
      ctx.logger?.error(`message ${driver.channel} driver threw`, { messageId: message.id, error: detail });
      outcome = { status: "failed", detail: `error: ${detail}` };
    }
    result[await mark(db, row.id, outcome, ctx.now())]++;
    handled++;
  };

  try {
    for (;;) {
      if (failure) throw failure;
      const free = driver.concurrency - inflight.size;
      const refill = inflight.size === 0 || free >= Math.ceil(driver.concurrency / 2);
      // Out of time, or the engine is stopping: finish (and mark) what is in flight, claim nothing more.
      if (!exhausted && (Date.now() > deadline || signal?.aborted)) exhausted = true;
      if (!exhausted && room > 0 && free > 0 && refill) {
        const wanted = Math.min(free, room);
        const n = rate ? await pace(db, driver.channel, wanted, rate) : wanted;
        const claimed = await db.execute<{ id: string; user_id: string }>(sql`
          update message_deliveries set status = 'claimed', claimed_at = now()
          where id in (select id from message_deliveries where ${claimable}
            order by id limit ${n} for update skip locked)
          returning id, user_id`);
        if (rate && claimed.rows.length < n) {
          await unpace(db, driver.channel, n - claimed.rows.length, rate);
        }
        if (claimed.rows.length === 0) exhausted = true;
        room -= claimed.rows.length;
        for (const row of claimed.rows) {
          inflight.set(
            row.id,
            deliverOne(row)
              .catch((error: unknown) => {
                failure ??= error;
              })
              .finally(() => inflight.delete(row.id)),
          );
        }
        if (claimed.rows.length > 0) continue;
      }
      if (inflight.size === 0) break;
      await Promise.race(inflight.values());
    }
  } finally {
    // Let the deliveries in flight finish (and be marked) before returning or failing.
    await Promise.allSettled(inflight.values());
    clearInterval(heartbeat);
  }
  if (failure) throw failure;
  return handled;
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

/**
 * When something of this message may become claimable again: the earliest not_before
 * of a deferred row, or the end of the lease of a row claimed elsewhere. In ms from now.
 */
export async function nextWakeMs(db: Db, messageId: string, leaseSeconds: number): Promise<number | null> {
  const [row] = (
    await db.execute<{ ms: number | null }>(sql`
      select (extract(epoch from least(
        (select min(coalesce(not_before, now())) from message_deliveries where message_id = ${messageId} and status = 'pending'),
        (select min(claimed_at) + make_interval(secs => ${leaseSeconds}) from message_deliveries
          where message_id = ${messageId} and status = 'claimed')
      ) - now()) * 1000)::float8 as ms`)
  ).rows;
  return row?.ms === null || row?.ms === undefined ? null : Number(row.ms);
}

/** How many jobs work one message at once (each its own pg-boss singleton key), so processes share it. */
const SEND_LANES = 2;

/**
 * Queues the sending of a message on the job engine (messages.send), one job per lane;
 * at `startAfter` for a scheduled one. A lane that already has a job queued keeps it.
 * Without a running engine (tests, the first seconds of a start) nothing is queued here:
 * the messages.sweep job (every minute and at start) queues every due message.
 */
export async function enqueueSending(deps: Pick<Deps, "jobs" | "logger">, messageId: string, startAfter?: Date) {
  try {
    for (let lane = 0; lane < SEND_LANES; lane++) {
      await deps.jobs.send(
        "messages.send",
        { messageId, lane },
        { singletonKey: `${messageId}:${lane}`, ...(startAfter ? { startAfter } : {}) },
      );
    }
  } catch (error) {
    deps.logger.debug("messages: sending not queued now (the sweep will)", {
      messageId,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
