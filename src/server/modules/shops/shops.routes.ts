import { Hono } from "hono";
import { z } from "zod";
import {
  invitationSchema,
  paginationSchema,
  reviewSchema,
  shopHoursSchema,
  shopLegalSchema,
  shopPageSchema,
  shopRegistrationSchema,
  shopSearchSchema,
} from "../../../domain/schemas/shops.ts";
import { routeBodyLimit } from "../../lib/body-size.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { getPosterPdf } from "./poster-pdf.ts";
import { deleteReview, listReviews, saveReview } from "./reviews.service.ts";
import {
  getShopHours,
  getShopLegal,
  getShopOverview,
  getShopPageContent,
  updateShopHours,
  updateShopLegal,
  updateShopPageContent,
} from "./settings.service.ts";
import { deleteShop, exportShop } from "./shop-closure.service.ts";
import {
  getShopByScanUid,
  getShopImage,
  getShopPage,
  listMyShops,
  registerShop,
  searchShops,
} from "./shops.service.ts";
import {
  acceptStaffInvitation,
  cancelStaffInvitation,
  getInvitationDetails,
  inviteStaff,
  listTeam,
  rejectStaffInvitation,
  removeStaff,
} from "./team.service.ts";

const slugParam = z.object({ slug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Boutique introuvable.") });
const scanUidParam = z.object({
  scanUid: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, "Ce code ne correspond à aucune boutique Fidèle."),
});
/** Without a radius, "nearby" means within this distance. */
const NEARBY_DEFAULT_RADIUS_KM = 30;
const id = (label: string) =>
  z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, `${label} introuvable.`);
const invitationParam = z.object({ invitationId: id("Invitation") });
const memberParam = z.object({ memberId: id("Membre") });

/** Logo, its wallet PNG and cover travel as data URLs: room for the three at their limits (1,096 KB, base64). */
const pageBodyLimit = routeBodyLimit(
  1_600_000,
  "Les images sont trop lourdes : 200 Ko pour le logo, 800 Ko pour la couverture.",
);
const deleteShopSchema = z.object({
  name: z
    .string({ error: "Saisissez le nom de la boutique pour confirmer." })
    .trim()
    .min(1, "Saisissez le nom de la boutique pour confirmer.")
    .max(200),
});

/** /api/shops: registration, search, a shop's page and reviews. */
const shops = new Hono<AppEnv>()
  .post("/", validate("json", shopRegistrationSchema), async (c) => {
    const user = currentUser(c);
    const shop = await registerShop(c.get("deps").db, user.id, c.req.valid("json"));
    return c.json({ shop }, 201);
  })
  .get("/", validate("query", shopSearchSchema), async (c) => {
    return c.json(await searchShops(c.get("deps").db, c.req.valid("query")));
  })
  .get("/nearby", validate("query", shopSearchSchema), async (c) => {
    return c.json(
      await searchShops(c.get("deps").db, c.req.valid("query"), { defaultRadiusKm: NEARBY_DEFAULT_RADIUS_KM }),
    );
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

/** /api/backoffice/invitations/:invitationId: the person invited (/accept-invitation/{id}). */
const invitations = new Hono<AppEnv>()
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

/** The shops module's routes outside a shop's back office: /api/shops, /api/backoffice/invitations. */
export const shopsRoutes = new Hono<AppEnv>().route("/shops", shops).route("/backoffice/invitations", invitations);

/**
 * /api/backoffice/shops/:shopId/…: the shop's overview (any member), its page, legal identity, hours,
 * poster and team, its export and its deletion (owner). The shop access is resolved once by the sub-router
 * (lib/shop-access.ts).
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
  })
  /* Closing the shop: its data in one archive, and its deletion */
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
