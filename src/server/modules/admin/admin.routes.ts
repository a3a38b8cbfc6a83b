import { sql } from "drizzle-orm";
import { Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import type { Db } from "../../db/client.ts";
import { suspendShopSchema } from "../../../domain/schemas/shops.ts";
import { smsSpikeMessage } from "../../../domain/messages/sms-spike.ts";
import { unsetLegalDetails } from "../../env.ts";
import { type AppEnv, currentAdmin, currentUser } from "../../lib/context.ts";
import { shopIdSchema } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { listOutbox } from "../mail/mail.service.ts";
import { grantBudget, grantBudgetSchema, smsVolume } from "../messages/sms-platform.service.ts";
import {
  auditCsv,
  auditQuerySchema,
  listAudit,
  listConnected,
  actOnUser,
  banSchema,
  listSessions,
  listUsers,
  platformOverview,
  resendConfirmation,
  usersQuerySchema,
  revokeSession,
} from "./console.service.ts";
import { listAllShops, setShopStatus } from "./platform.service.ts";
import { platformRetention, platformRetentionQuery } from "./platform-retention.service.ts";

const sessionParam = z.object({ sessionId: z.string().min(1).max(100) });
const userParam = z.object({ userId: z.string().min(1).max(100) });

const platformQuery = z.object({
  q: z.string().trim().max(80).optional(),
  status: z.enum(["active", "suspended"]).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).default(0),
});

/** /api/admin: the platform admin's tools, and the console pages every signed-in member uses (sessions, online). */
const adminConsole = new Hono<AppEnv>()
  .get("/logs", validate("query", auditQuerySchema), async (c) => {
    currentAdmin(c);
    return c.json(await listAudit(c.get("deps").db, c.req.valid("query")));
  })
  .get("/logs.csv", validate("query", auditQuerySchema), async (c) => {
    currentAdmin(c);
    const body = await auditCsv(c.get("deps").db, c.req.valid("query"));
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="journal-${new Date().toISOString().slice(0, 10)}.csv"`,
      },
    });
  })
  // Issue 27 item 4: retention and the automations' volumes across shops.
  .get("/retention", validate("query", platformRetentionQuery), async (c) => {
    currentAdmin(c);
    return c.json(await platformRetention(c.get("deps").db, c.req.valid("query"), new Date()));
  })
  .get("/overview", async (c) => {
    currentAdmin(c);
    return c.json(await platformOverview(c.get("deps")));
  })
  .get("/users", validate("query", usersQuerySchema), async (c) => {
    currentAdmin(c);
    return c.json(await listUsers(c.get("deps").db, c.req.valid("query").q));
  })
  .post("/users/:userId/ban", validate("param", userParam), validate("json", banSchema), async (c) => {
    const admin = currentAdmin(c);
    const { userId } = c.req.valid("param");
    await actOnUser(
      c.get("deps"),
      admin,
      c.req.raw.headers,
      userId,
      "ban",
      c.req.valid("json").reason,
      c.get("clientIp") ?? null,
    );
    return c.json({ ok: true });
  })
  .post("/users/:userId/unban", validate("param", userParam), async (c) => {
    const admin = currentAdmin(c);
    const { userId } = c.req.valid("param");
    await actOnUser(c.get("deps"), admin, c.req.raw.headers, userId, "unban", null, c.get("clientIp") ?? null);
    return c.json({ ok: true });
  })
  .post("/users/:userId/sign-out", validate("param", userParam), async (c) => {
    const admin = currentAdmin(c);
    const { userId } = c.req.valid("param");
    await actOnUser(c.get("deps"), admin, c.req.raw.headers, userId, "signout", null, c.get("clientIp") ?? null);
    return c.json({ ok: true });
  })
  .post("/users/:userId/resend-confirmation", validate("param", userParam), async (c) => {
    const admin = currentAdmin(c);
    await resendConfirmation(c.get("deps"), admin, c.req.valid("param").userId, c.get("clientIp") ?? null);
    return c.json({ ok: true });
  })
  .get("/connected", async (c) => {
    return c.json(await listConnected(c.get("deps").db, currentUser(c)));
  })
  .get("/sessions", async (c) => {
    return c.json(await listSessions(c.get("deps").db, currentUser(c), c.get("session")?.id ?? null));
  })
  .delete("/sessions/:sessionId", validate("param", sessionParam), async (c) => {
    const viewer = currentUser(c);
    await revokeSession(c.get("deps").db, viewer, c.req.valid("param").sessionId, c.get("clientIp") ?? null);
    return c.json({ ok: true });
  })
  .get("/outbox", async (c) => {
    currentAdmin(c);
    return c.json({ messages: await listOutbox(c.get("deps").db) });
  })
  /** What the operator must still do, shown to the platform admin on the back-office pages. */
  .get("/notices", async (c) => {
    currentAdmin(c);
    const { db, env } = c.get("deps");
    const unset = unsetLegalDetails(env);
    const notices: { id: string; message: string }[] =
      unset.length > 0
        ? [
            {
              id: "legal-notice",
              message: `Les mentions légales affichent encore des valeurs d'exemple (« ${env.LEGAL_ADDRESS} »…). Renseignez ${unset.join(", ")} dans l'environnement du serveur, puis redémarrez-le : la loi les exige sur un site public.`,
            },
          ]
        : [];
    // SMS spikes (ADR 0032): a shop sending far above its habit today.
    for (const shop of (await smsVolume(db, env, new Date())).shops.filter((s) => s.spike)) {
      notices.push({
        id: `sms-spike-${shop.id}`,
        message: smsSpikeMessage(shop),
      });
    }
    return c.json({ notices });
  });

/** A shop its owner deleted (shop-closure.service.ts) stays closed: it has no team, no details, no key any more. */
async function refuseDeletedShop(db: Db, shopId: string) {
  const deleted = await db.execute(sql`select 1 from shops where id = ${shopId} and deleted_at is not null`);
  if (deleted.rows.length > 0) {
    throw new AppError("CONFLICT", {
      userMessage: "Cette boutique a été supprimée par son propriétaire : elle ne peut pas être réactivée.",
    });
  }
}

/** /api/backoffice/platform: the platform admin's list of shops, suspension and reactivation. */
const platform = new Hono<AppEnv>()
  .get("/shops", validate("query", platformQuery), async (c) => {
    currentAdmin(c);
    return c.json(await listAllShops(c.get("deps").db, c.req.valid("query")));
  })
  .post("/shops/:shopId/suspend", validate("param", shopIdSchema), validate("json", suspendShopSchema), async (c) => {
    const admin = currentAdmin(c);
    const actor = { id: admin.id, ip: c.get("clientIp") };
    return c.json({
      shop: await setShopStatus(
        c.get("deps").db,
        c.req.valid("param").shopId,
        "suspended",
        c.req.valid("json").reason,
        actor,
      ),
    });
  })
  .post("/shops/:shopId/reactivate", validate("param", shopIdSchema), async (c) => {
    const admin = currentAdmin(c);
    const actor = { id: admin.id, ip: c.get("clientIp") };
    await refuseDeletedShop(c.get("deps").db, c.req.valid("param").shopId);
    return c.json({ shop: await setShopStatus(c.get("deps").db, c.req.valid("param").shopId, "active", null, actor) });
  })
  /** SMS per shop: budgets, requests, volume of the month and the day, spikes (ADR 0032). */
  .get("/sms", async (c) => {
    currentAdmin(c);
    const { db, env } = c.get("deps");
    return c.json(await smsVolume(db, env, new Date()));
  })
  /** Only the platform admin grants a shop's monthly SMS budget (audited "sms.budget"). */
  .put("/shops/:shopId/sms-budget", validate("param", shopIdSchema), validate("json", grantBudgetSchema), async (c) => {
    const admin = currentAdmin(c);
    const { db, env } = c.get("deps");
    const { shopId } = c.req.valid("param");
    await grantBudget(db, env, admin.id, shopId, c.req.valid("json"), c.get("clientIp") ?? null);
    return c.json(await smsVolume(db, env, new Date()));
  });

/** The admin module's routes (it has no part in a shop's back office): /api/admin, /api/backoffice/platform. */
export const adminRoutes = new Hono<AppEnv>().route("/admin", adminConsole).route("/backoffice/platform", platform);
