import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { emailSchema } from "../../../domain/schemas/accounts.ts";
import {
  adjustmentSchema,
  creditVisitSchema,
  customersQuerySchema,
  dashboardQuerySchema,
  scansQuerySchema,
} from "../../../domain/schemas/cards.ts";
import {
  cardSettingsSchema,
  doublePointsSchema,
  invitationSchema,
  shopHoursSchema,
  shopLegalSchema,
  shopPageSchema,
  suspendShopSchema,
} from "../../../domain/schemas/shops.ts";
import { type AppEnv, currentAdmin, currentUser } from "../../lib/context.ts";
import { validate } from "../../lib/validate.ts";
import { requireShopAccess } from "./access.ts";
import { listAllShops, setShopStatus } from "./platform.service.ts";
import { customersCsv, getCustomer, getDashboard, listCustomers, listScans, listTodayScans, scansCsv } from "./reports.service.ts";
import {
  createDoublePoints,
  deleteDoublePoints,
  getCardSettings,
  getShopHours,
  getShopLegal,
  getShopOverview,
  getShopPageContent,
  listDoublePoints,
  renewCodeSecret,
  updateCardSettings,
  updateDoublePoints,
  updateShopHours,
  updateShopLegal,
  updateShopPageContent,
} from "./settings.service.ts";
import { adjustCard, creditVisit, getPosterPdf, getReaderCode, lookupCustomer } from "./staff.service.ts";
import {
  acceptStaffInvitation,
  cancelStaffInvitation,
  getInvitationDetails,
  inviteStaff,
  listTeam,
  rejectStaffInvitation,
  removeStaff,
} from "./team.service.ts";

const id = (label: string) => z.string().min(1).max(100).regex(/^[A-Za-z0-9_-]+$/, `${label} introuvable.`);
const shopParam = z.object({ shopId: id("Boutique") });
const cardParam = shopParam.extend({ cardId: z.string().uuid("Client introuvable.") });
const periodParam = shopParam.extend({ periodId: z.string().uuid("Opération introuvable.") });
const invitationParam = shopParam.extend({ invitationId: id("Invitation") });
const memberParam = shopParam.extend({ memberId: id("Membre") });
const lookupQuery = z.object({ email: emailSchema });
const platformQuery = z.object({
  q: z.string().trim().max(80).optional(),
  status: z.enum(["active", "suspended"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** Logo and cover travel as data URLs: room for both at their limits. */
const pageBodyLimit = bodyLimit({
  maxSize: 1_500_000,
  onError: () => {
    throw new AppError("PAYLOAD_TOO_LARGE", { userMessage: "Les images sont trop lourdes : 200 Ko pour le logo, 800 Ko pour la couverture." });
  },
});

const csv = (body: string, filename: string) =>
  new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${filename}"`,
    },
  });

/**
 * The shop back-office (owner) and the counter (staff) under /api/backoffice/shops/:shopId,
 * staff invitations, and the platform admin's shop list. See docs/api/loyalty.md.
 */
export const backofficeRoutes = new Hono<AppEnv>()
  // — any member of the shop —
  .get("/shops/:shopId", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "staff");
    return c.json({ shop: await getShopOverview(c.get("deps").db, access) });
  })
  .get("/shops/:shopId/reader", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "staff");
    const { db, env } = c.get("deps");
    return c.json(await getReaderCode(db, access, env.APP_URL));
  })
  .get("/shops/:shopId/today", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "staff");
    return c.json(await listTodayScans(c.get("deps").db, access));
  })
  .get("/shops/:shopId/lookup", validate("param", shopParam), validate("query", lookupQuery), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "staff");
    return c.json({ customer: await lookupCustomer(c.get("deps").db, access, c.req.valid("query").email) });
  })
  .post("/shops/:shopId/credit", validate("param", shopParam), validate("json", creditVisitSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "staff");
    const { answer, replayed, customer } = await creditVisit(c.get("deps").database, access, c.req.valid("json"));
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json({ ...answer, customer });
  })
  .post("/shops/:shopId/adjust", validate("param", shopParam), validate("json", adjustmentSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "staff");
    const { replayed, ...result } = await adjustCard(c.get("deps").db, access, c.req.valid("json"));
    if (replayed) c.header("Idempotent-Replayed", "true");
    return c.json(result, replayed ? 200 : 201);
  })
  // — owner (or shop admin, or platform admin) —
  .get("/shops/:shopId/dashboard", validate("param", shopParam), validate("query", dashboardQuerySchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json(await getDashboard(c.get("deps").db, access, c.req.valid("query").days));
  })
  .get("/shops/:shopId/page", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ page: await getShopPageContent(c.get("deps").db, access) });
  })
  .put("/shops/:shopId/page", pageBodyLimit, validate("param", shopParam), validate("json", shopPageSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ page: await updateShopPageContent(c.get("deps").db, access, c.req.valid("json")) });
  })
  .get("/shops/:shopId/legal", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ legal: await getShopLegal(c.get("deps").db, access) });
  })
  .put("/shops/:shopId/legal", validate("param", shopParam), validate("json", shopLegalSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ legal: await updateShopLegal(c.get("deps").db, access, c.req.valid("json")) });
  })
  .get("/shops/:shopId/hours", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ hours: await getShopHours(c.get("deps").db, access) });
  })
  .put("/shops/:shopId/hours", validate("param", shopParam), validate("json", shopHoursSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ hours: await updateShopHours(c.get("deps").db, access, c.req.valid("json")) });
  })
  .get("/shops/:shopId/card", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ card: await getCardSettings(c.get("deps").db, access) });
  })
  .put("/shops/:shopId/card", validate("param", shopParam), validate("json", cardSettingsSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ card: await updateCardSettings(c.get("deps").db, access, c.req.valid("json")) });
  })
  .post("/shops/:shopId/code-secret", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json(await renewCodeSecret(c.get("deps").db, access));
  })
  .get("/shops/:shopId/poster.pdf", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    const { db, env } = c.get("deps");
    const { pdf, filename } = await getPosterPdf(db, access, env.APP_URL);
    return c.body(new Uint8Array(pdf), 200, {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${filename}"`,
    });
  })
  .get("/shops/:shopId/double-points", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ periods: await listDoublePoints(c.get("deps").db, access) });
  })
  .post("/shops/:shopId/double-points", validate("param", shopParam), validate("json", doublePointsSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ period: await createDoublePoints(c.get("deps").db, access, c.req.valid("json")) }, 201);
  })
  .put("/shops/:shopId/double-points/:periodId", validate("param", periodParam), validate("json", doublePointsSchema), async (c) => {
    const { shopId, periodId } = c.req.valid("param");
    const access = await requireShopAccess(c, shopId, "owner");
    return c.json({ period: await updateDoublePoints(c.get("deps").db, access, periodId, c.req.valid("json")) });
  })
  .delete("/shops/:shopId/double-points/:periodId", validate("param", periodParam), async (c) => {
    const { shopId, periodId } = c.req.valid("param");
    const access = await requireShopAccess(c, shopId, "owner");
    await deleteDoublePoints(c.get("deps").db, access, periodId);
    return c.json({ ok: true as const });
  })
  .get("/shops/:shopId/customers", validate("param", shopParam), validate("query", customersQuerySchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json(await listCustomers(c.get("deps").db, access, c.req.valid("query")));
  })
  .get("/shops/:shopId/customers.csv", validate("param", shopParam), validate("query", customersQuerySchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    const file = await customersCsv(c.get("deps").db, access, c.req.valid("query"));
    return csv(file.csv, file.filename);
  })
  .get("/shops/:shopId/customers/:cardId", validate("param", cardParam), async (c) => {
    const { shopId, cardId } = c.req.valid("param");
    const access = await requireShopAccess(c, shopId, "owner");
    return c.json(await getCustomer(c.get("deps").db, access, cardId));
  })
  .get("/shops/:shopId/scans", validate("param", shopParam), validate("query", scansQuerySchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json(await listScans(c.get("deps").db, access, c.req.valid("query")));
  })
  .get("/shops/:shopId/scans.csv", validate("param", shopParam), validate("query", scansQuerySchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    const file = await scansCsv(c.get("deps").db, access, c.req.valid("query"));
    return csv(file.csv, file.filename);
  })
  .get("/shops/:shopId/team", validate("param", shopParam), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json(await listTeam(c.get("deps").db, access));
  })
  .post("/shops/:shopId/invitations", validate("param", shopParam), validate("json", invitationSchema), async (c) => {
    const access = await requireShopAccess(c, c.req.valid("param").shopId, "owner");
    return c.json({ invitation: await inviteStaff(c.get("deps"), access, c.req.raw.headers, c.req.valid("json")) }, 201);
  })
  .delete("/shops/:shopId/invitations/:invitationId", validate("param", invitationParam), async (c) => {
    const { shopId, invitationId } = c.req.valid("param");
    const access = await requireShopAccess(c, shopId, "owner");
    await cancelStaffInvitation(c.get("deps"), access, c.req.raw.headers, invitationId);
    return c.json({ ok: true as const });
  })
  .delete("/shops/:shopId/members/:memberId", validate("param", memberParam), async (c) => {
    const { shopId, memberId } = c.req.valid("param");
    const access = await requireShopAccess(c, shopId, "owner");
    await removeStaff(c.get("deps"), access, c.req.raw.headers, memberId);
    return c.json({ ok: true as const });
  })
  // — the person invited (/accept-invitation/{id}) —
  .get("/invitations/:invitationId", validate("param", z.object({ invitationId: id("Invitation") })), async (c) => {
    const user = currentUser(c);
    return c.json({ invitation: await getInvitationDetails(c.get("deps").db, c.req.valid("param").invitationId, user.email) });
  })
  .post("/invitations/:invitationId/accept", validate("param", z.object({ invitationId: id("Invitation") })), async (c) => {
    currentUser(c);
    return c.json(await acceptStaffInvitation(c.get("deps"), c.req.raw.headers, c.req.valid("param").invitationId));
  })
  .post("/invitations/:invitationId/reject", validate("param", z.object({ invitationId: id("Invitation") })), async (c) => {
    currentUser(c);
    await rejectStaffInvitation(c.get("deps"), c.req.raw.headers, c.req.valid("param").invitationId);
    return c.json({ ok: true as const });
  })
  // — platform admin —
  .get("/platform/shops", validate("query", platformQuery), async (c) => {
    currentAdmin(c);
    return c.json(await listAllShops(c.get("deps").db, c.req.valid("query")));
  })
  .post("/platform/shops/:shopId/suspend", validate("param", shopParam), validate("json", suspendShopSchema), async (c) => {
    currentAdmin(c);
    return c.json({ shop: await setShopStatus(c.get("deps").db, c.req.valid("param").shopId, "suspended", c.req.valid("json").reason) });
  })
  .post("/platform/shops/:shopId/reactivate", validate("param", shopParam), async (c) => {
    currentAdmin(c);
    return c.json({ shop: await setShopStatus(c.get("deps").db, c.req.valid("param").shopId, "active", null) });
  });
