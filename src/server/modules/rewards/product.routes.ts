import { Hono } from "hono";
import { z } from "zod";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { archiveProduct, getProduct } from "./product.service.ts";

const productParam = z.object({
  slug: z
    .string()
    .min(1, "Récompense ou lot introuvable.")
    .max(120, "Récompense ou lot introuvable.")
    .regex(/^[a-z0-9-]+$/, "Récompense ou lot introuvable."),
});

/** /api/backoffice/shops/:shopId/products/:slug — the page /admin/{product} (owner). */
export const productRoutes = new Hono<ShopEnv>()
  .get("/products/:slug", ownerOnly, validate("param", productParam), async (c) =>
    c.json({ product: await getProduct(c.get("deps").db, c.get("access"), c.req.valid("param").slug) }),
  )
  .post("/products/:slug/archive", ownerOnly, validate("param", productParam), async (c) =>
    c.json({
      product: await archiveProduct(c.get("deps").db, c.get("access"), c.req.valid("param").slug, c.get("clientIp") ?? null),
    }),
  );
