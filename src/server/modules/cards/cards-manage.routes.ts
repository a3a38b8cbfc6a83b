import { Hono } from "hono";
import { z } from "zod";
import { emailSchema } from "../../../domain/schemas/accounts.ts";
import {
  adjustmentSchema,
  adjustmentsQuerySchema,
  creditVisitSchema,
  customersQuerySchema,
  dashboardQuerySchema,
  scansQuerySchema,
} from "../../../domain/schemas/cards.ts";
import { cardSettingsSchema, doublePointsSchema } from "../../../domain/schemas/shops.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import {
  createDoublePoints,
  deleteDoublePoints,
  getCardSettings,
  listDoublePoints,
  renewCodeSecret,
  updateCardSettings,
  updateDoublePoints,
} from "./card-settings.service.ts";
import { getCodesAhead } from "./counter-codes.service.ts";
import { listAdjustments } from "./adjustments-feed.service.ts";
import { adjustCard, decideAdjustmentRequest } from "./adjustments.service.ts";
import { creditVisit, getReaderCode, lookupCustomer } from "./counter.service.ts";
import { customersCsv, getCustomer, listCustomers } from "./customers.service.ts";
import { getDashboard } from "./dashboard.service.ts";
import { listScans, listTodayScans, scansCsv } from "./scans-list.service.ts";
import { saveCustomerNote } from "./customer-profile.service.ts";

const cardParam = z.object({ cardId: z.string().uuid("Client introuvable.") });
const periodParam = z.object({ periodId: z.string().uuid("Opération introuvable.") });
const adjustmentParam = z.object({ adjustmentId: z.string().uuid("Correction introuvable.") });
const lookupQuery = z.object({ email: emailSchema });
const personParam = z.object({ userId: z.string().min(1).max(100) });
const noteSchema = z.object({ note: z.string().max(2000, "La note tient en 2 000 caractères au plus.") });

const csv = (body: ReadableStream<Uint8Array>, filename: string) =>
  new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
    },
  });

/**
 * /api/backoffice/shops/:shopId/…: the counter (staff), the card's rules, customers and scans (owner).
 * The shop access is resolved once by the sub-router (lib/shop-access.ts).
 */
export const cardsManageRoutes = new Hono<ShopEnv>()
  // — any member of the shop: the counter —
  .get("/reader/ahead", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await getCodesAhead(db, c.get("access"), env.APP_URL));
  })
  .get("/reader", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await getReaderCode(db, c.get("access"), env.APP_URL));
  })
  .get("/today", async (c) => c.json(await listTodayScans(c.get("deps").db, c.get("access"))))
  .get("/lookup", validate("query", lookupQuery), async (c) => {
    return c.json({ customer: await lookupCustomer(c.get("deps").db, c.get("access"), c.req.valid("query").email) });
  })
  .post("/credit", validate("json", creditVisitSchema), async (c) => {
    const { answer, replayed, customer } = await creditVisit(
      c.get("deps").database,
      c.get("access"),
      c.req.valid("json"),
      c.get("clientIp"),
    );
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ ...answer, customer });
  })
  .post("/adjust", validate("json", adjustmentSchema), async (c) => {
    const { replayed, ...result } = await adjustCard(c.get("deps").db, c.get("access"), c.req.valid("json"));
    if (replayed) c.header("Idempotent-Replayed", "true");
    // 202: a team member's correction beyond the cap waits for the owner or a manager (ADR 0036).
    return c.json(result, replayed ? 200 : result.status === "pending" ? 202 : 201);
  })
  // — owner (or shop admin, or platform admin) —
  .get("/dashboard", ownerOnly, validate("query", dashboardQuerySchema), async (c) => {
    return c.json(await getDashboard(c.get("deps").db, c.get("access"), c.req.valid("query").days));
  })
  /* The corrections' feed, and the owner's or a manager's word on the waiting ones (ADR 0036). */
  .get("/adjustments", ownerOnly, validate("query", adjustmentsQuerySchema), async (c) => {
    return c.json(await listAdjustments(c.get("deps").db, c.get("access"), c.req.valid("query")));
  })
  .post("/adjustments/:adjustmentId/approve", ownerOnly, validate("param", adjustmentParam), async (c) => {
    const id = c.req.valid("param").adjustmentId;
    return c.json(await decideAdjustmentRequest(c.get("deps").db, c.get("access"), id, "approve"));
  })
  .post("/adjustments/:adjustmentId/refuse", ownerOnly, validate("param", adjustmentParam), async (c) => {
    const id = c.req.valid("param").adjustmentId;
    return c.json(await decideAdjustmentRequest(c.get("deps").db, c.get("access"), id, "refuse"));
  })
  .get("/card", ownerOnly, async (c) => c.json({ card: await getCardSettings(c.get("deps").db, c.get("access")) }))
  .put("/card", ownerOnly, validate("json", cardSettingsSchema), async (c) => {
    return c.json({ card: await updateCardSettings(c.get("deps").db, c.get("access"), c.req.valid("json")) });
  })
  .post("/code-secret", ownerOnly, async (c) => c.json(await renewCodeSecret(c.get("deps").db, c.get("access"))))
  .get("/double-points", ownerOnly, async (c) => {
    return c.json({ periods: await listDoublePoints(c.get("deps").db, c.get("access")) });
  })
  .post("/double-points", ownerOnly, validate("json", doublePointsSchema), async (c) => {
    return c.json({ period: await createDoublePoints(c.get("deps").db, c.get("access"), c.req.valid("json")) }, 201);
  })
  .put(
    "/double-points/:periodId",
    ownerOnly,
    validate("param", periodParam),
    validate("json", doublePointsSchema),
    async (c) => {
      const { periodId } = c.req.valid("param");
      return c.json({
        period: await updateDoublePoints(c.get("deps").db, c.get("access"), periodId, c.req.valid("json")),
      });
    },
  )
  .delete("/double-points/:periodId", ownerOnly, validate("param", periodParam), async (c) => {
    await deleteDoublePoints(c.get("deps").db, c.get("access"), c.req.valid("param").periodId);
    return c.json({ ok: true as const });
  })
  .get("/customers", ownerOnly, validate("query", customersQuerySchema), async (c) => {
    return c.json(await listCustomers(c.get("deps").db, c.get("access"), c.req.valid("query")));
  })
  .get("/customers.csv", ownerOnly, validate("query", customersQuerySchema), async (c) => {
    const file = await customersCsv(c.get("deps").db, c.get("access"), c.req.valid("query"));
    return csv(file.body, file.filename);
  })
  /* The shop's private note about a customer (/profile/{id}): any team member, for a customer of this shop. */
  .put("/customers/:userId/note", validate("param", personParam), validate("json", noteSchema), async (c) => {
    const { userId } = c.req.valid("param");
    return c.json(await saveCustomerNote(c.get("deps").db, c.get("access"), userId, c.req.valid("json").note));
  })
  .get("/customers/:cardId", ownerOnly, validate("param", cardParam), async (c) => {
    return c.json(await getCustomer(c.get("deps").db, c.get("access"), c.req.valid("param").cardId));
  })
  .get("/scans", ownerOnly, validate("query", scansQuerySchema), async (c) => {
    return c.json(await listScans(c.get("deps").db, c.get("access"), c.req.valid("query")));
  })
  .get("/scans.csv", ownerOnly, validate("query", scansQuerySchema), async (c) => {
    const file = await scansCsv(c.get("deps").db, c.get("access"), c.req.valid("query"));
    return csv(file.body, file.filename);
  });
