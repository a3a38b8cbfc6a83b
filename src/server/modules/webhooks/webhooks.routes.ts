import { Hono } from "hono";
import { z } from "zod";
import { webhookCreateSchema } from "../../../domain/schemas/till.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, resendDelivery } from "./webhooks.service.ts";

const webhookParam = z.object({ id: z.string().uuid("Adresse introuvable.") });
const deliveryParam = webhookParam.extend({ deliveryId: z.string().uuid("Envoi introuvable.") });

/** /api/backoffice/shops/:shopId/webhooks (owner): subscriptions, their delivery log, « Renvoyer » (ADR 0050). */
export const webhooksManageRoutes = new Hono<ShopEnv>()
  .get("/webhooks", ownerOnly, async (c) => c.json({ webhooks: await listWebhooks(c.get("deps").db, c.get("access")) }))
  .post("/webhooks", ownerOnly, validate("json", webhookCreateSchema), async (c) =>
    c.json(await createWebhook(c.get("deps"), c.get("access"), c.req.valid("json")), 201),
  )
  .delete("/webhooks/:id", ownerOnly, validate("param", webhookParam), async (c) => {
    await deleteWebhook(c.get("deps").db, c.get("access"), c.req.valid("param").id);
    return c.json({ ok: true as const });
  })
  .get("/webhooks/:id/deliveries", ownerOnly, validate("param", webhookParam), async (c) =>
    c.json({ deliveries: await listDeliveries(c.get("deps").db, c.get("access"), c.req.valid("param").id) }),
  )
  .post("/webhooks/:id/deliveries/:deliveryId/resend", ownerOnly, validate("param", deliveryParam), async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    return c.json({ attempt: await resendDelivery(c.get("deps"), c.get("access"), id, deliveryId) });
  });
