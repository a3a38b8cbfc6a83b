import { Hono } from "hono";
import { z } from "zod";
import {
  claimSchema,
  prepaidLookupQuerySchema,
  prepaidProductActiveSchema,
  prepaidProductSchema,
  prepaidSaleSchema,
  prepaidUseSchema,
} from "../../../domain/schemas/prepaid.ts";
import { importBodyLimit } from "../../lib/body-size.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { csvResponse } from "../../lib/list-page.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { cancelPrepaidEntry, lookupPrepaid, sellPrepaid, usePrepaid } from "./counter.service.ts";
import { claimCode, listMyPrepaid } from "./holdings.service.ts";
import { commitImport, listImportInvitations, previewImport } from "./import.service.ts";
import { getPrepaidLiability, prepaidLiabilityCsv } from "./liability.service.ts";
import { createPrepaidProduct, listPrepaidProducts, setPrepaidProductActive } from "./products.service.ts";

/** Prepaid bundles and gift cards, and imported balances (ADR 0049). */

const mineQuery = z.object({
  shop: z
    .string()
    .regex(/^[a-z0-9-]{1,80}$/, "Boutique introuvable.")
    .optional(),
});
const productParam = z.object({ productId: z.string().uuid("Produit introuvable.") });
const entryParam = z.object({
  entryId: z.coerce
    .number({ error: "Opération introuvable." })
    .int("Opération introuvable.")
    .min(1, "Opération introuvable.")
    .max(Number.MAX_SAFE_INTEGER, "Opération introuvable."),
});
const importSchema = z.object({
  csv: z
    .string({ error: "Choisissez un fichier CSV." })
    .min(1, "Le fichier est vide.")
    .max(2_500_000, "Le fichier est trop lourd."),
});
const invitationsQuery = z.object({
  batchId: z.string().uuid("Import introuvable.").optional(),
  limit: z.coerce.number().int().min(1).max(20_000).default(500),
});

/** /api/prepaid: what a shopper holds, and a claim code (a gift, an imported balance). */
const prepaid = new Hono<AppEnv>()
  .get("/mine", validate("query", mineQuery), async (c) =>
    c.json({ holdings: await listMyPrepaid(c.get("deps").db, currentUser(c).id, c.req.valid("query").shop) }),
  )
  .post("/claim", validate("json", claimSchema), async (c) =>
    c.json(await claimCode(c.get("deps").database, currentUser(c).id, c.req.valid("json").code)),
  );

export const prepaidRoutes = new Hono<AppEnv>().route("/prepaid", prepaid);

/** /api/backoffice/shops/:shopId/…: the owner's products, liability and import; the counter's sales and uses. */
export const prepaidManageRoutes = new Hono<ShopEnv>()
  // — owner —
  .get("/prepaid/products", ownerOnly, async (c) =>
    c.json({ products: await listPrepaidProducts(c.get("deps").db, c.get("access"), { activeOnly: false }) }),
  )
  .post("/prepaid/products", ownerOnly, validate("json", prepaidProductSchema), async (c) =>
    c.json({ product: await createPrepaidProduct(c.get("deps").db, c.get("access"), c.req.valid("json")) }, 201),
  )
  .patch(
    "/prepaid/products/:productId/active",
    ownerOnly,
    validate("param", productParam),
    validate("json", prepaidProductActiveSchema),
    async (c) =>
      c.json({
        product: await setPrepaidProductActive(
          c.get("deps").db,
          c.get("access"),
          c.req.valid("param").productId,
          c.req.valid("json").isActive,
        ),
      }),
  )
  .get("/prepaid/liability", ownerOnly, async (c) =>
    c.json(await getPrepaidLiability(c.get("deps").db, c.get("access"))),
  )
  .get("/prepaid/liability.csv", ownerOnly, async (c) => {
    const file = await prepaidLiabilityCsv(c.get("deps").db, c.get("access"));
    return csvResponse(file.body, file.filename);
  })
  .post("/imports/preview", ownerOnly, importBodyLimit, validate("json", importSchema), async (c) =>
    c.json(await previewImport(c.get("deps").db, c.get("access"), c.req.valid("json").csv)),
  )
  .post("/imports", ownerOnly, importBodyLimit, validate("json", importSchema), async (c) =>
    c.json(await commitImport(c.get("deps").db, c.get("access"), c.req.valid("json").csv), 201),
  )
  .get("/imports/invitations", ownerOnly, validate("query", invitationsQuery), async (c) =>
    c.json(await listImportInvitations(c.get("deps").db, c.get("access"), c.req.valid("query"))),
  )
  // — any member of the shop: the counter —
  .get("/prepaid/for-sale", async (c) =>
    c.json({ products: await listPrepaidProducts(c.get("deps").db, c.get("access"), { activeOnly: true }) }),
  )
  .post("/prepaid/sales", validate("json", prepaidSaleSchema), async (c) => {
    const { replayed, ...sale } = await sellPrepaid(
      c.get("deps"),
      c.get("access"),
      c.req.valid("json"),
      c.get("clientIp"),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json(sale, replayed ? 200 : 201);
  })
  .get("/prepaid/lookup", validate("query", prepaidLookupQuerySchema), async (c) =>
    c.json({ holding: await lookupPrepaid(c.get("deps").db, c.get("access"), c.req.valid("query").code) }),
  )
  .post("/prepaid/uses", validate("json", prepaidUseSchema), async (c) => {
    const { replayed, entryId, holding } = await usePrepaid(c.get("deps"), c.get("access"), c.req.valid("json"));
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ holding, entryId }, replayed ? 200 : 201);
  })
  .post("/prepaid/entries/:entryId/cancel", validate("param", entryParam), async (c) => {
    const { replayed, holding } = await cancelPrepaidEntry(
      c.get("deps"),
      c.get("access"),
      c.req.valid("param").entryId,
      c.get("clientIp"),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ holding }, replayed ? 200 : 201);
  });
