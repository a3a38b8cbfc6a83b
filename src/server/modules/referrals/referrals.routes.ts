import { type Context, Hono } from "hono";
import { z } from "zod";
import { entryNetwork } from "../../../domain/contests/one-person.ts";
import { referralDecisionSchema, referralSettingsSchema } from "../../../domain/referrals/referrals.ts";
import { deviceIdSchema } from "../../../domain/schemas/cards.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { decideReferral, getReferralPage, saveReferralProgram } from "./program.service.ts";
import { acceptInvite, getInvite, getMyReferralLink, type ReferralPerson } from "./referrals.service.ts";

const codeParam = z.object({
  code: z.string().regex(/^[a-z0-9]{6,20}$/, "Ce lien de parrainage n'existe pas ou plus."),
});
const linkBody = z.object({
  shopSlug: z.string().regex(/^[a-z0-9-]{1,80}$/, "Boutique introuvable."),
  deviceId: deviceIdSchema,
});
const acceptBody = z.object({ deviceId: deviceIdSchema }).strict();
const referralParam = z.object({ id: z.string().uuid("Parrainage introuvable.") });

/** Accepting links is throttled per person (database-backed, shared by every process). */
const ACCEPT_WINDOW_SECONDS = 600;
const ACCEPT_MAX = 10;

const personOf = (c: Context<AppEnv>, deviceId: string | null): ReferralPerson => ({
  userId: currentUser(c).id,
  deviceId,
  network: entryNetwork(c.get("clientIp")),
});

/** /api/referrals: my link for a shop, an invitation as a friend sees it, accepting it. */
const referrals = new Hono<AppEnv>()
  .post("/link", validate("json", linkBody), async (c) => {
    const { shopSlug, deviceId } = c.req.valid("json");
    const { db, env } = c.get("deps");
    return c.json(await getMyReferralLink(db, env.APP_URL, personOf(c, deviceId), shopSlug));
  })
  .get("/invites/:code", validate("param", codeParam), async (c) => {
    return c.json(await getInvite(c.get("deps").db, c.req.valid("param").code, c.get("user")?.id ?? null));
  })
  .post("/invites/:code/accept", validate("param", codeParam), validate("json", acceptBody), async (c) => {
    const person = personOf(c, c.req.valid("json").deviceId);
    const { db } = c.get("deps");
    await enforceThrottle(db, `referral:${person.userId}`, ACCEPT_WINDOW_SECONDS, ACCEPT_MAX);
    return c.json(await acceptInvite(db, person, c.req.valid("param").code), 201);
  });

/** /api/backoffice/shops/:shopId/referrals: the owner's settings, who brought whom, decisions on held ones. */
const referralsManage = new Hono<ShopEnv>()
  .use(ownerOnly)
  .get("/", async (c) => c.json(await getReferralPage(c.get("deps").db, c.get("access"))))
  .put("/program", validate("json", referralSettingsSchema), async (c) => {
    await saveReferralProgram(c.get("deps").db, c.get("access"), c.req.valid("json"));
    return c.json({ ok: true });
  })
  .post("/:id/decision", validate("param", referralParam), validate("json", referralDecisionSchema), async (c) => {
    await decideReferral(c.get("deps").db, c.get("access"), c.req.valid("param").id, c.req.valid("json").release);
    return c.json({ ok: true });
  });

export const referralsRoutes = new Hono<AppEnv>().route("/referrals", referrals);
export const referralsManageRoutes = new Hono<ShopEnv>().route("/referrals", referralsManage);
