import { Hono } from "hono";
import { z } from "zod";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { deleteShop, exportShop } from "./shop-closure.service.ts";

const deleteShopSchema = z.object({
  name: z
    .string({ error: "Saisissez le nom de la boutique pour confirmer." })
    .trim()
    .min(1, "Saisissez le nom de la boutique pour confirmer.")
    .max(200),
});

/** /api/backoffice/shops/:shopId/export and DELETE /api/backoffice/shops/:shopId: the owner closes their shop. */
export const shopClosureRoutes = new Hono<ShopEnv>()
  .get("/export", ownerOnly, async (c) => {
    const access = c.get("access");
    await enforceThrottle(c.get("deps").db, `shop-export:${access.shopId}`, 3600, 10);
    const { zip, filename } = await exportShop(c.get("deps").db, access, c.get("clientIp") ?? null);
    return c.body(zip as Uint8Array<ArrayBuffer>, 200, {
      "content-type": "application/zip",
      "content-disposition": `attachment; filename="${filename}"`,
      "cache-control": "no-store",
    });
  })
  .delete("/", ownerOnly, validate("json", deleteShopSchema), async (c) => {
    const access = c.get("access");
    await enforceThrottle(c.get("deps").db, `shop-delete:${access.userId}`, 3600, 10);
    return c.json(await deleteShop(c.get("deps"), access, c.req.valid("json").name, c.get("clientIp") ?? null));
  });
