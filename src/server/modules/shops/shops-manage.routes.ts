import { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { invitationSchema, shopHoursSchema, shopLegalSchema, shopPageSchema } from "../../../domain/schemas/shops.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { routeBodyLimit } from "../../lib/body-size.ts";
import { validate } from "../../lib/validate.ts";
import { getPosterPdf } from "./poster-pdf.ts";
import {
  getShopHours,
  getShopLegal,
  getShopOverview,
  getShopPageContent,
  updateShopHours,
  updateShopLegal,
  updateShopPageContent,
} from "./settings.service.ts";
import {
  acceptStaffInvitation,
  cancelStaffInvitation,
  getInvitationDetails,
  inviteStaff,
  listTeam,
  rejectStaffInvitation,
  removeStaff,
} from "./team.service.ts";

const id = (label: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, `${label} introuvable.`);
const invitationParam = z.object({ invitationId: id("Invitation") });
const memberParam = z.object({ memberId: id("Membre") });

/** Logo and cover travel as data URLs: room for both at their limits. */
const pageBodyLimit = routeBodyLimit(1_500_000, "Les images sont trop lourdes : 200 Ko pour le logo, 800 Ko pour la couverture.");

/**
 * /api/backoffice/shops/:shopId/…: the shop's overview (any member), its page, legal identity, hours,
 * poster and team (owner). The shop access is resolved once by the sub-router (lib/shop-access.ts).
 */
export const shopsManageRoutes = new Hono<ShopEnv>()
  .get("/", async (c) => c.json({ shop: await getShopOverview(c.get("deps").db, c.get("access")) }))
  .get("/page", ownerOnly, async (c) => c.json({ page: await getShopPageContent(c.get("deps").db, c.get("access")) }))
  .put("/page", ownerOnly, pageBodyLimit, validate("json", shopPageSchema), async (c) => {
    return c.json({ page: await updateShopPageContent(c.get("deps").db, c.get("access"), c.req.valid("json")) });
  })
  .get("/legal", ownerOnly, async (c) => c.json({ legal: await getShopLegal(c.get("deps").db, c.get("access")) }))
  .put("/legal", ownerOnly, validate("json", shopLegalSchema), async (c) => {
    return c.json({ legal: await updateShopLegal(c.get("deps").db, c.get("access"), c.req.valid("json")) });
  })
  .get("/hours", ownerOnly, async (c) => c.json({ hours: await getShopHours(c.get("deps").db, c.get("access")) }))
  .put("/hours", ownerOnly, validate("json", shopHoursSchema), async (c) => {
    return c.json({ hours: await updateShopHours(c.get("deps").db, c.get("access"), c.req.valid("json")) });
  })
  .get("/poster.pdf", ownerOnly, async (c) => {
    const { db, env } = c.get("deps");
    const { pdf, filename } = await getPosterPdf(db, c.get("access"), env.APP_URL);
    return c.body(new Uint8Array(pdf), 200, {
      "content-type": "application/pdf",
      "content-disposition": `attachment; filename="${filename}"`,
    });
  })
  .get("/team", ownerOnly, async (c) => c.json(await listTeam(c.get("deps").db, c.get("access"))))
  .post("/invitations", ownerOnly, validate("json", invitationSchema), async (c) => {
    return c.json(
      { invitation: await inviteStaff(c.get("deps"), c.get("access"), c.req.raw.headers, c.req.valid("json")) },
      201,
    );
  })
  .delete("/invitations/:invitationId", ownerOnly, validate("param", invitationParam), async (c) => {
    await cancelStaffInvitation(c.get("deps"), c.get("access"), c.req.raw.headers, c.req.valid("param").invitationId);
    return c.json({ ok: true as const });
  })
  .delete("/members/:memberId", ownerOnly, validate("param", memberParam), async (c) => {
    await removeStaff(c.get("deps"), c.get("access"), c.req.raw.headers, c.req.valid("param").memberId);
    return c.json({ ok: true as const });
  });

/** /api/backoffice/invitations/:invitationId: the person invited (/accept-invitation/{id}). */
export const invitationsRoutes = new Hono<AppEnv>()
  .get("/:invitationId", validate("param", invitationParam), async (c) => {
    const user = currentUser(c);
    return c.json({
      invitation: await getInvitationDetails(c.get("deps").db, c.req.valid("param").invitationId, user.email),
    });
  })
  .post("/:invitationId/accept", validate("param", invitationParam), async (c) => {
    currentUser(c);
    return c.json(await acceptStaffInvitation(c.get("deps"), c.req.raw.headers, c.req.valid("param").invitationId));
  })
  .post("/:invitationId/reject", validate("param", invitationParam), async (c) => {
    currentUser(c);
    await rejectStaffInvitation(c.get("deps"), c.req.raw.headers, c.req.valid("param").invitationId);
    return c.json({ ok: true as const });
  });
