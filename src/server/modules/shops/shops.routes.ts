import { Hono } from "hono";
import { z } from "zod";
import { paginationSchema, reviewSchema, shopRegistrationSchema, shopSearchSchema } from "../../../domain/schemas/shops.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { validate } from "../../lib/validate.ts";
import {
  getShopByScanUid,
  getShopImage,
  getShopPage,
  listMyShops,
  registerShop,
  searchShops,
} from "./shops.service.ts";
import { deleteReview, listReviews, saveReview } from "./reviews.service.ts";

const slugParam = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Boutique introuvable.") });
const scanUidParam = z.object({ scanUid: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "Ce code ne correspond à aucune boutique Fidèle.") });
/** Without a radius, "nearby" means within this distance. */
const NEARBY_DEFAULT_RADIUS_KM = 30;

export const shopsRoutes = new Hono<AppEnv>()
  .post("/", validate("json", shopRegistrationSchema), async (c) => {
    const user = currentUser(c);
    const shop = await registerShop(c.get("deps").db, user.id, c.req.valid("json"));
    return c.json({ shop }, 201);
  })
  .get("/", validate("query", shopSearchSchema), async (c) => {
    return c.json(await searchShops(c.get("deps").db, c.req.valid("query")));
  })
  .get("/nearby", validate("query", shopSearchSchema), async (c) => {
    return c.json(await searchShops(c.get("deps").db, c.req.valid("query"), { defaultRadiusKm: NEARBY_DEFAULT_RADIUS_KM }));
  })
  .get("/mine", async (c) => {
    const user = currentUser(c);
    return c.json({ shops: await listMyShops(c.get("deps").db, user.id) });
  })
  .get("/by-scan/:scanUid", validate("param", scanUidParam), async (c) => {
    return c.json({ shop: await getShopByScanUid(c.get("deps").db, c.req.valid("param").scanUid) });
  })
  .get("/:slug", validate("param", slugParam), async (c) => {
    const user = c.get("user");
    return c.json(await getShopPage(c.get("deps").db, c.req.valid("param").slug, user?.id ?? null));
  })
  .get("/:slug/logo", validate("param", slugParam), async (c) => {
    const image = await getShopImage(c.get("deps").db, c.req.valid("param").slug, "logo");
    return c.body(new Uint8Array(image.bytes), 200, { "content-type": image.mime });
  })
  .get("/:slug/cover", validate("param", slugParam), async (c) => {
    const image = await getShopImage(c.get("deps").db, c.req.valid("param").slug, "cover");
    return c.body(new Uint8Array(image.bytes), 200, { "content-type": image.mime });
  })
  .get("/:slug/reviews", validate("param", slugParam), validate("query", paginationSchema), async (c) => {
    return c.json(await listReviews(c.get("deps").db, c.req.valid("param").slug, c.req.valid("query")));
  })
  .put("/:slug/review", validate("param", slugParam), validate("json", reviewSchema), async (c) => {
    const user = currentUser(c);
    const saved = await saveReview(c.get("deps").db, user.id, c.req.valid("param").slug, c.req.valid("json"));
    return c.json({ review: saved }, saved.created ? 201 : 200);
  })
  .delete("/:slug/review", validate("param", slugParam), async (c) => {
    const user = currentUser(c);
    await deleteReview(c.get("deps").db, user.id, c.req.valid("param").slug);
    return c.json({ ok: true as const });
  });
