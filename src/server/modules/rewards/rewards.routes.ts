import { Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { idempotencyKeySchema } from "../../../domain/schemas/cards.ts";
import {
  ownerRewardsQuerySchema,
  redeemSchema,
  redemptionCodeQuerySchema,
  redemptionsQuerySchema,
  refuseRedemptionSchema,
  rewardActiveSchema,
  rewardInputSchema,
  rewardOrderSchema,
  rewardSettingsSchema,
  vipTiersSchema,
} from "../../../domain/schemas/rewards.ts";
import type { Database } from "../../db/client.ts";
import { photoBodyLimit } from "../../lib/body-size.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import {
  createReward,
  deleteReward,
  getOwnerReward,
  getRewardSettings,
  listOwnerRewards,
  reorderRewards,
  setRewardActive,
  updateReward,
  updateRewardSettings,
} from "./catalogue.service.ts";
import { archiveProduct, getProduct } from "./product.service.ts";
import {
  getOwed,
  listShopRedemptions,
  lookupRedemption,
  refuseRedemption,
  validateRedemption,
} from "./redemption-desk.service.ts";
import { emitRedeemedEvent } from "../webhooks/webhooks.service.ts";
import {
  cancelMyRedemption,
  getMyRedemption,
  listMyRedemptions,
  redeem,
  redemptionState,
  waitForChange,
} from "./redemptions.service.ts";
import { getRewardPage, getRewardPhoto, rewardIdBySlug } from "./rewards.service.ts";
import { getMyVip, getVipTiers, giftTarget, replaceVipTiers } from "./vip.service.ts";
import { offerGiftTarget } from "../messages/offers.service.ts";

const slugParam = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Récompense introuvable.") });
const redemptionParam = z.object({ id: z.string().uuid("Récompense à valider introuvable.") });
const rewardParam = z.object({ rewardId: z.string().uuid("Récompense introuvable.") });
const giftSchema = z.object({
  cardId: z.string().uuid("Carte introuvable."),
  source: z.enum(["vip", "birthday", "offer", "referral"], { error: "Cadeau inconnu." }),
  tierId: z.string().uuid("Niveau introuvable.").nullish(),
  /** For « offer »: the automation occasion that carried it. */
  offerId: z.string().uuid("Offre introuvable.").nullish(),
  /** A parrainage's reward (ADR 0048): the referral it comes from. */
  referralId: z.string().uuid("Parrainage introuvable.").nullish(),
  idempotencyKey: idempotencyKeySchema,
});
const myRedemptionsQuery = z.object({ status: z.enum(["pending", "all"]).default("all") });
const productParam = z.object({
  slug: z
    .string()
    .min(1, "Récompense ou lot introuvable.")
    .max(120, "Récompense ou lot introuvable.")
    .regex(/^[a-z0-9-]+$/, "Récompense ou lot introuvable."),
});

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
const rewards = new Hono<AppEnv>()
  .get("/vip", async (c) => {
    const user = currentUser(c);
    return c.json(await getMyVip(c.get("deps").db, user.id));
  })
  .post("/gifts", validate("json", giftSchema), async (c) => {
    const user = currentUser(c);
    const input = c.req.valid("json");
    const { database, db } = c.get("deps");
    const target =
      input.source === "offer"
        ? await offerGiftTarget(db, user.id, { cardId: input.cardId, offerId: input.offerId ?? null }, new Date())
        : await giftTarget(db, user.id, {
            cardId: input.cardId,
            source: input.source,
            tierId: input.tierId ?? null,
            referralId: input.referralId ?? null,
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
const redemptions = new Hono<AppEnv>()
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

/** The rewards module's routes outside a shop's back office: /api/rewards, /api/redemptions. */
export const rewardsRoutes = new Hono<AppEnv>().route("/rewards", rewards).route("/redemptions", redemptions);

/**
 * /api/backoffice/shops/:shopId/…: the catalogue, a reward's or lot's page (/admin/{product}), VIP levels, what is
 * owed (owner), validation at the counter (staff). The shop access is resolved once by the sub-router
 * (lib/shop-access.ts).
 */
export const rewardsManageRoutes = new Hono<ShopEnv>()
  .get("/rewards", ownerOnly, validate("query", ownerRewardsQuerySchema), async (c) =>
    c.json(await listOwnerRewards(c.get("deps").db, c.get("access"), c.req.valid("query"))),
  )
  .post("/rewards", ownerOnly, photoBodyLimit, validate("json", rewardInputSchema), async (c) => {
    return c.json({ reward: await createReward(c.get("deps").db, c.get("access"), c.req.valid("json")) }, 201);
  })
  .put("/rewards-order", ownerOnly, validate("json", rewardOrderSchema), async (c) => {
    return c.json(await reorderRewards(c.get("deps").db, c.get("access"), c.req.valid("json").ids));
  })
  .get("/rewards/:rewardId", ownerOnly, validate("param", rewardParam), async (c) => {
    return c.json({ reward: await getOwnerReward(c.get("deps").db, c.get("access"), c.req.valid("param").rewardId) });
  })
  .put(
    "/rewards/:rewardId",
    ownerOnly,
    photoBodyLimit,
    validate("param", rewardParam),
    validate("json", rewardInputSchema),
    async (c) => {
      const { rewardId } = c.req.valid("param");
      return c.json({ reward: await updateReward(c.get("deps").db, c.get("access"), rewardId, c.req.valid("json")) });
    },
  )
  .patch(
    "/rewards/:rewardId/active",
    ownerOnly,
    validate("param", rewardParam),
    validate("json", rewardActiveSchema),
    async (c) => {
      const { rewardId } = c.req.valid("param");
      return c.json({
        reward: await setRewardActive(c.get("deps").db, c.get("access"), rewardId, c.req.valid("json").isActive),
      });
    },
  )
  .delete("/rewards/:rewardId", ownerOnly, validate("param", rewardParam), async (c) => {
    return c.json(await deleteReward(c.get("deps").db, c.get("access"), c.req.valid("param").rewardId));
  })
  .get("/reward-settings", ownerOnly, async (c) => {
    return c.json({ settings: await getRewardSettings(c.get("deps").db, c.get("access")) });
  })
  .put("/reward-settings", ownerOnly, validate("json", rewardSettingsSchema), async (c) => {
    return c.json({ settings: await updateRewardSettings(c.get("deps").db, c.get("access"), c.req.valid("json")) });
  })
  .get("/vip-tiers", ownerOnly, async (c) => c.json(await getVipTiers(c.get("deps").db, c.get("access"))))
  .put("/vip-tiers", ownerOnly, validate("json", vipTiersSchema), async (c) => {
    return c.json(await replaceVipTiers(c.get("deps").db, c.get("access"), c.req.valid("json")));
  })
  .get("/owed", ownerOnly, async (c) => c.json(await getOwed(c.get("deps").database, c.get("access"))))
  .get("/redemptions", ownerOnly, validate("query", redemptionsQuerySchema), async (c) => {
    return c.json(await listShopRedemptions(c.get("deps").database, c.get("access"), c.req.valid("query")));
  })
  /* The page of a reward or a lot, /admin/{product} */
  .get("/products/:slug", ownerOnly, validate("param", productParam), async (c) =>
    c.json({ product: await getProduct(c.get("deps").db, c.get("access"), c.req.valid("param").slug) }),
  )
  .post("/products/:slug/archive", ownerOnly, validate("param", productParam), async (c) =>
    c.json({
      product: await archiveProduct(
        c.get("deps").db,
        c.get("access"),
        c.req.valid("param").slug,
        c.get("clientIp") ?? null,
      ),
    }),
  )
  // — any member of the shop: validation at the counter —
  .get("/redemptions/lookup", validate("query", redemptionCodeQuerySchema), async (c) => {
    return c.json({
      redemption: await lookupRedemption(c.get("deps").database, c.get("access"), c.req.valid("query").code),
    });
  })
  .post("/redemptions/:id/validate", validate("param", redemptionParam), async (c) => {
    const deps = c.get("deps");
    const redemption = await validateRedemption(deps.database, c.get("access"), c.req.valid("param").id);
    await emitRedeemedEvent(deps, c.get("access").shopId, redemption);
    return c.json({ redemption });
  })
  .post(
    "/redemptions/:id/refuse",
    validate("param", redemptionParam),
    validate("json", refuseRedemptionSchema),
    async (c) => {
      const { id } = c.req.valid("param");
      return c.json({
        redemption: await refuseRedemption(c.get("deps").database, c.get("access"), id, c.req.valid("json").reason),
      });
    },
  );
