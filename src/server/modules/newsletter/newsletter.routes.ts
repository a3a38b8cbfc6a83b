import { Hono } from "hono";
import { z } from "zod";
import { segmentSchema } from "../../../domain/messages/segments.ts";
import { newsletterContentSchema, newsletterSchema } from "../../../domain/newsletter/blocks.ts";
import { validate } from "../../lib/validate.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { changeMessageStatus } from "../messages/compose.service.ts";
import {
  countNewsletterAudience,
  createNewsletter,
  getNewsletter,
  listNewsletters,
  newsletterEditorContext,
  previewNewsletter,
  sendTestNewsletter,
} from "./newsletter.service.ts";

const idParam = z.object({
  shopId: z.string().min(1).max(100),
  id: z.string().uuid("Newsletter introuvable."),
});
const actionParam = z.object({ action: z.enum(["pause", "resume", "cancel"], { error: "Action inconnue." }) });
const audienceSchema = z.object({ segment: segmentSchema.default({ kind: "all" }) });

/** /api/newsletter/shops/:shopId/…: a shop's e-mail campaigns (owners only, behind the one shopAccess guard). */
export const newsletterRoutes = new Hono<ShopEnv>()
  .get("/editor", ownerOnly, async (c) => c.json(await newsletterEditorContext(c.get("deps"), c.get("access"))))
  .post("/audience", ownerOnly, validate("json", audienceSchema), async (c) => {
    return c.json(await countNewsletterAudience(c.get("deps").db, c.get("access"), c.req.valid("json").segment));
  })
  .post("/preview", ownerOnly, validate("json", newsletterContentSchema), async (c) => {
    return c.json(await previewNewsletter(c.get("deps"), c.get("access"), c.req.valid("json")));
  })
  .post("/test", ownerOnly, validate("json", newsletterContentSchema), async (c) => {
    return c.json(await sendTestNewsletter(c.get("deps"), c.get("access"), c.req.valid("json")));
  })
  .get("/campaigns", ownerOnly, async (c) => {
    return c.json({ newsletters: await listNewsletters(c.get("deps").db, c.get("access")) });
  })
  .post("/campaigns", ownerOnly, validate("json", newsletterSchema), async (c) => {
    return c.json({ newsletter: await createNewsletter(c.get("deps"), c.get("access"), c.req.valid("json")) }, 201);
  })
  .get("/campaigns/:id", ownerOnly, validate("param", idParam), async (c) => {
    return c.json({ newsletter: await getNewsletter(c.get("deps").db, c.get("access"), c.req.valid("param").id) });
  })
  .post("/campaigns/:id/:action", ownerOnly, validate("param", idParam.extend(actionParam.shape)), async (c) => {
    const { id, action } = c.req.valid("param");
    const access = c.get("access");
    const deps = c.get("deps");
    const db = deps.db;
    await getNewsletter(db, access, id); // a newsletter of this shop, else 404
    await changeMessageStatus(deps, { kind: "shop", access }, id, action);
    return c.json({ newsletter: await getNewsletter(db, access, id) });
  });
