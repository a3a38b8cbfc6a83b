import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { idempotencyKeySchema } from "../../../domain/schemas/cards.ts";
import { redeemSchema } from "../../../domain/schemas/rewards.ts";
import type { Database } from "../../db/client.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { validate } from "../../lib/validate.ts";
import {
  cancelMyRedemption,
  getMyRedemption,
  listMyRedemptions,
  redeem,
  redemptionState,
  waitForChange,
} from "./redemptions.service.ts";
import { getRewardPage, getRewardPhoto, rewardIdBySlug } from "./rewards.service.ts";
import { getMyVip, giftTarget } from "./vip.service.ts";

const slugParam = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Récompense introuvable.") });
const redemptionParam = z.object({ id: z.string().uuid("Récompense à valider introuvable.") });
const giftSchema = z.object({
  cardId: z.string().uuid("Carte introuvable."),
  source: z.enum(["vip", "birthday"], { error: "Cadeau inconnu." }),
  tierId: z.string().uuid("Niveau introuvable.").nullish(),
  idempotencyKey: idempotencyKeySchema,
});
const myRedemptionsQuery = z.object({ status: z.enum(["pending", "all"]).default("all") });

/** How long one live stream stays open before the page reconnects, and how often it re-reads. */
const STREAM_MAX_MS = 10 * 60_000;
const STREAM_POLL_MS = 1000;
const STREAM_PING_MS = 15_000;

/**
 * Live streams one person may hold open at once (per process): a page open in a few tabs is fine, sixty is not.
 * Past it: 429, and the page follows by polling (its fallback when a stream fails).
 */
export const STREAMS_PER_USER = 3;
const openStreams = new WeakMap<Database, Map<string, number>>();

function takeStreamSlot(database: Database, userId: string): () => void {
  let counts = openStreams.get(database);
  if (!counts) {
    counts = new Map();
    openStreams.set(database, counts);
  }
  const held = counts.get(userId) ?? 0;
  if (held >= STREAMS_PER_USER) {
    throw new AppError("RATE_LIMITED", {
      message: "too many open event streams",
      userMessage: "Trop de suivis en direct ouverts en même temps : fermez un autre onglet de Fidèle.",
    });
  }
  counts.set(userId, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const now = (counts.get(userId) ?? 1) - 1;
    if (now <= 0) counts.delete(userId);
    else counts.set(userId, now);
  };
}

/** /api/rewards: what shoppers see and use. */
export const rewardsRoutes = new Hono<AppEnv>()
  .get("/vip", async (c) => {
    const user = currentUser(c);
    return c.json(await getMyVip(c.get("deps").db, user.id));
  })
  .post("/gifts", validate("json", giftSchema), async (c) => {
    const user = currentUser(c);
    const input = c.req.valid("json");
    const { database, db } = c.get("deps");
    const target = await giftTarget(db, user.id, {
      cardId: input.cardId,
      source: input.source,
      tierId: input.tierId ?? null,
    });
    const { redemption, replayed } = await redeem(database, user.id, {
      rewardId: target.rewardId,
      idempotencyKey: input.idempotencyKey,
      source: input.source,
      sourceRef: target.sourceRef,
    });
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ redemption }, replayed ? 200 : 201);
  })
  .get("/:slug", validate("param", slugParam), async (c) => {
    return c.json(await getRewardPage(c.get("deps").db, c.req.valid("param").slug, c.get("user")?.id ?? null));
  })
  .get("/:slug/photo", validate("param", slugParam), async (c) => {
    const photo = await getRewardPhoto(c.get("deps").db, c.req.valid("param").slug);
    return c.body(new Uint8Array(photo.bytes), 200, { "content-type": photo.mime });
  })
  .post("/:slug/redeem", validate("param", slugParam), validate("json", redeemSchema), async (c) => {
    const user = currentUser(c);
    const { database, db } = c.get("deps");
    const rewardId = await rewardIdBySlug(db, c.req.valid("param").slug);
    const { redemption, replayed } = await redeem(database, user.id, {
      rewardId,
      idempotencyKey: c.req.valid("json").idempotencyKey,
    });
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ redemption }, replayed ? 200 : 201);
  });

/** /api/redemptions: the shopper's own redemptions and the live validation screen. */
export const redemptionsRoutes = new Hono<AppEnv>()
  .get("/", validate("query", myRedemptionsQuery), async (c) => {
    const user = currentUser(c);
    return c.json({
      redemptions: await listMyRedemptions(c.get("deps").database, user.id, c.req.valid("query").status),
    });
  })
  .get("/:id", validate("param", redemptionParam), async (c) => {
    const user = currentUser(c);
    return c.json({ redemption: await getMyRedemption(c.get("deps").database, user.id, c.req.valid("param").id) });
  })
  .post("/:id/cancel", validate("param", redemptionParam), async (c) => {
    const user = currentUser(c);
    return c.json({ redemption: await cancelMyRedemption(c.get("deps").database, user.id, c.req.valid("param").id) });
  })
  /**
   * Server-sent events: `state` now and whenever it changes (validated, refused,
   * cancelled, expired), a comment every 15 s to keep proxies from closing it.
   * Changes made in this process arrive at once; those of another process within
   * a second (the stream re-reads). Ends when the redemption is no longer pending.
   */
  .get("/:id/events", validate("param", redemptionParam), async (c) => {
    const user = currentUser(c);
    const { database } = c.get("deps");
    const id = c.req.valid("param").id;
    let state = await redemptionState(database, user.id, id); // 404 before the stream opens
    const release = takeStreamSlot(database, user.id); // 429 before the stream opens
    return streamSSE(
      c,
      async (stream) => {
        const aborted = new AbortController();
        stream.onAbort(() => {
          aborted.abort();
          release();
        });
        try {
          await stream.writeSSE({ event: "state", data: JSON.stringify(state) });
          const started = Date.now();
          let lastPing = started;
          // Each stream lives at most STREAM_MAX_MS; the browser's EventSource then reconnects by itself.
          while (!aborted.signal.aborted && state.status === "pending" && Date.now() - started < STREAM_MAX_MS) {
            await waitForChange(database, id, STREAM_POLL_MS, aborted.signal);
            if (aborted.signal.aborted) break;
            const next = await redemptionState(database, user.id, id);
            if (next.status !== state.status || next.balance !== state.balance) {
              state = next;
              await stream.writeSSE({ event: "state", data: JSON.stringify(state) });
            } else if (Date.now() - lastPing >= STREAM_PING_MS) {
              lastPing = Date.now();
              await stream.write(": ping\n\n");
            }
          }
        } finally {
          release();
        }
      },
      async () => release(),
    );
  });
