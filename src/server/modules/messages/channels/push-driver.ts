import { sql } from "drizzle-orm";
import { buildPushPayload } from "../../../../domain/messages/payload.ts";
import type { Db } from "../../../db/client.ts";
import { filledText, frozenValuesOf } from "../merge-values.ts";
import type { ChannelDriver, ChannelOutcome } from "./driver.ts";
import { pushSenderFor } from "./push.ts";

/**
 * Web push as a channel driver (channels.ts; the engine applies the frequency caps before): the person's devices,
 * a subscription removed on 404/410, Retry-After honoured per push service, and the
 * RFC 8030 Topic. One delivery row is one person: every device of theirs gets it; the
 * row is delivered when one device accepted it.
 */
/**
 * Pushes in flight per process: 32 sends 10,000 in 15–16 s on PostgreSQL (16: 20.8 s; `npm run bench -- messages`);
 * a process killed mid-send leaves at most this many "interrupted", never sent twice (ADR 0023).
 */
const PUSH_CONCURRENCY = 32;

/** Push services that asked us to wait (429/503 Retry-After), by origin: until when (this process). */
const backoff = new Map<string, number>();

export async function removeSubscription(db: Db, id: string) {
  await db.execute(sql`delete from push_subscriptions where id = ${id}`);
}

type Prepared = { payload: string; topic: string };

export const pushDriver: ChannelDriver = {
  channel: "push",
  concurrency: PUSH_CONCURRENCY,
  async prepare(_ctx, message): Promise<Prepared> {
    return {
      payload: buildPushPayload({ id: message.id, title: message.title, body: message.body, image: message.image_url }),
      // RFC 8030 §5.4: a copy queued at the push service for a phone that is offline is replaced by a newer
      // one of the same message rather than shown twice (and the service worker shows it under the message's tag).
      topic: message.id.replace(/-/g, ""),
    };
  },
  async deliver(ctx, message, delivery, prepared): Promise<ChannelOutcome> {
    const { db } = ctx;
    const { topic } = prepared as Prepared;
    let { payload } = prepared as Prepared;
    const devices = (
      await db.execute<{ id: string; endpoint: string; p256dh: string; auth: string }>(sql`
        select id, endpoint, p256dh, auth from push_subscriptions where user_id = ${delivery.user_id}`)
    ).rows;
    if (devices.length === 0) return { status: "skipped", detail: "no device" };
    // An automation's title and text are filled with each recipient's own values.
    if (message.kind === "automation") {
      const own = filledText(message, await frozenValuesOf(db, message.id, delivery.user_id));
      payload = buildPushPayload({ id: own.id, title: own.title, body: own.body, image: own.image_url });
    }
    const push = pushSenderFor(ctx.deps);
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
    if (delivered) return { status: "delivered" };
    // Honour Retry-After: back to pending, not claimable before then.
    if (waitMs > 0) return { status: "deferred", notBefore: new Date(ctx.now().getTime() + waitMs) };
    return { status: "failed", detail: errors.join("; ").slice(0, 500) || "subscription gone" };
  },
};
