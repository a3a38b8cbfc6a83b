import { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import {
  redemptionCodeQuerySchema,
  ownerRewardsQuerySchema,
  redemptionsQuerySchema,
  refuseRedemptionSchema,
  rewardActiveSchema,
  rewardInputSchema,
  rewardOrderSchema,
  rewardSettingsSchema,
  vipTiersSchema,
} from "../../../domain/schemas/rewards.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { photoBodyLimit } from "../../lib/body-size.ts";
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
import {
  getOwed,
  listShopRedemptions,
  lookupRedemption,
  refuseRedemption,
  validateRedemption,
} from "./redemption-desk.service.ts";
import { getVipTiers, replaceVipTiers } from "./vip.service.ts";

const rewardParam = z.object({ rewardId: z.string().uuid("Récompense introuvable.") });
const redemptionParam = z.object({ id: z.string().uuid("Récompense à valider introuvable.") });

/** A photo travels as a data URL: room for one at its limit. */

/**
 * /api/backoffice/shops/:shopId/…: the catalogue, VIP levels, what is owed (owner), validation at the
 * counter (staff). The shop access is resolved once by the sub-router (lib/shop-access.ts).
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
  // — any member of the shop: validation at the counter —
  .get("/redemptions/lookup", validate("query", redemptionCodeQuerySchema), async (c) => {
    return c.json({
      redemption: await lookupRedemption(c.get("deps").database, c.get("access"), c.req.valid("query").code),
    });
  })
  .post("/redemptions/:id/validate", validate("param", redemptionParam), async (c) => {
    return c.json({
      redemption: await validateRedemption(c.get("deps").database, c.get("access"), c.req.valid("param").id),
    });
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
