import { sql } from "drizzle-orm";
import type { Deps } from "../lib/context.ts";
import {
  enqueueSending,
  finishIfDone,
  markInterrupted,
  nextWakeMs,
  processMessageBatch,
  startSending,
} from "../modules/messages/sending.service.ts";
import { defineJob } from "./define.ts";

/**
 * Sending a message (ADR 0023): `messages.send` works one lane of one message — batches
 * until nothing is left or its time budget is spent, then queues itself again while rows
 * remain, so the processes polling the queue take turns and share the message
 * (SEND_LANES jobs per message, each a pg-boss singleton key: at most one queued and one
 * running per lane). A paused, cancelled or sent message ends its jobs; resuming queues
 * them again. `messages.sweep` (every minute and at start) queues every message that is
 * due or sending, for those whose jobs were lost (a send while the engine was starting).
 */
const SLICE_MS = 20_000;

export async function runSendSlice(
  deps: Deps,
  { messageId, lane = 0 }: { messageId: string; lane?: number },
  { budgetMs = SLICE_MS, signal }: { budgetMs?: number; signal?: AbortSignal } = {},
) {
  await startSending(deps.db, messageId);
  const [head] = (await deps.db.execute<{ status: string }>(sql`select status from messages where id = ${messageId}`)).rows;
  if (head?.status !== "sending") return { status: head?.status ?? null, handled: 0 };
  deps.logger.info("messages: sending", { messageId, lane, pid: process.pid });
  const deadline = Date.now() + budgetMs;
  let handled = 0;
  for (;;) {
    const r = await processMessageBatch(deps, messageId, { deadline, signal });
    const worked = r.delivered + r.failed + r.skipped + r.deferred;
    handled += worked;
    if (r.status !== "sending") return { status: r.status, handled };
    if (r.remaining === 0) {
      await finishIfDone(deps.db, messageId);
      return { status: "sent", handled };
    }
    if (worked === 0 || Date.now() > deadline || signal?.aborted) {
      // Nothing claimable now (deferred rows, or rows another process holds): come back when it may be.
      const wake = worked === 0 ? await nextWakeMs(deps.db, messageId, deps.env.MESSAGES_LEASE_SECONDS) : 0;
      const seconds = Math.min(30, Math.max(worked === 0 ? 1 : 0, Math.ceil((wake ?? 0) / 1000)));
      try {
        await deps.jobs.send(
          "messages.send",
          { messageId, lane },
          { singletonKey: `${messageId}:${lane}`, ...(seconds > 0 ? { startAfter: seconds } : {}) },
        );
      } catch (error) {
        // The engine is stopping (or the queue unreachable): messages.sweep queues the message again.
        deps.logger.info("messages: lane not queued again, the sweep will", {
          messageId,
          lane,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      return { status: "sending", handled, again: seconds };
    }
  }
}

export const messagesSend = defineJob<"messages.send", { messageId: string; lane?: number }>({
  name: "messages.send",
  queue: {
    // One queued and one running job per singleton key (message and lane).
    policy: "stately",
    expireInSeconds: 300,
    // A process that dies mid-slice: its job is failed (and retried) at the next supervise pass.
    heartbeatSeconds: 30,
    retryLimit: 5,
    retryDelay: 5,
    retryBackoff: true,
    retryDelayMax: 120,
    deleteAfterSeconds: 24 * 3600,
  },
  // One lane at a time per process: with two processes polling, each takes a lane of a big message.
  worker: { pollingIntervalSeconds: 1, localConcurrency: 1 },
  async run(data, { deps, signal }) {
    return runSendSlice(deps, data, { signal });
  },
});

/** Every due or sending message gets its lanes queued (a lane already queued keeps its job). */
async function sweepMessages(deps: Deps) {
  const due = await deps.db.execute<{ id: string; status: string }>(sql`
    select id, status from messages
    where (status = 'scheduled' and scheduled_at <= now()) or status = 'sending'
    order by coalesce(scheduled_at, created_at) limit 200`);
  let interrupted = 0;
  for (const m of due.rows) {
    if (m.status === "sending") interrupted += await markInterrupted(deps.db, m.id, deps.env.MESSAGES_LEASE_SECONDS);
    await enqueueSending(deps, m.id);
  }
  return { queued: due.rows.length, interrupted };
}

export const messagesSweep = defineJob({
  name: "messages.sweep",
  queue: { policy: "stately", expireInSeconds: 120, retryLimit: 3, retryDelay: 5, retryBackoff: true },
  schedule: { cron: "* * * * *" },
  runAtStart: true,
  async run(_data, { deps }) {
    return sweepMessages(deps);
  },
});
