import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import {
  tabletAmountSchema,
  tabletCreateSchema,
  tabletPairSchema,
  tabletReceiptParam,
} from "../../../domain/schemas/till.ts";
import type { AppEnv } from "../../lib/context.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { codesAheadWhere } from "../cards/counter-codes.service.ts";
import { readerCodeWhere } from "../cards/counter.service.ts";
import { createAmountCode, getAmountCodeStatus, getTabletScreen, listLastVisits } from "./tablet-screen.service.ts";
import {
  authenticateTablet,
  createTablet,
  listTablets,
  pairTablet,
  revokeTablet,
  type TabletCaller,
  tabletScope,
} from "./tablets.service.ts";

/**
 * /api/tablet: the counter tablet's own routes (issue 29 item 6, ADR 0054). Its credential is a cookie scoped to
 * this path (the browser sends it nowhere else) and read only here: it is no user session, so every other route,
 * the back office first, sees a signed-out visitor.
 */
const TABLET_COOKIE = "fidele.tablet";
const COOKIE_PATH = "/api/tablet";
/** Chromium keeps a cookie 400 days at most (RFC 6265bis); each pairing starts again. */
const COOKIE_MAX_AGE = 400 * 86_400;

type TabletEnv = { Variables: AppEnv["Variables"] & { tablet: TabletCaller } };

const tabletAuth = createMiddleware<TabletEnv>(async (c, next) => {
  try {
    c.set("tablet", await authenticateTablet(c.get("deps").db, getCookie(c, TABLET_COOKIE)));
  } catch (error) {
    // A revoked or unknown credential is dropped, so the tablet shows its « not paired » screen for good.
    if (getCookie(c, TABLET_COOKIE) !== undefined) deleteCookie(c, TABLET_COOKIE, { path: COOKIE_PATH });
    throw error;
  }
  await next();
});

const screen = new Hono<TabletEnv>()
  .use(tabletAuth)
  .get("/", async (c) => c.json(await getTabletScreen(c.get("deps").db, c.get("tablet"))))
  /* The rotating code, exactly as /reader gets it (the same functions, scoped by the tablet). */
  .get("/code", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await readerCodeWhere(db, tabletScope(c.get("tablet")), env.APP_URL));
  })
  .get("/code/ahead", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await codesAheadWhere(db, tabletScope(c.get("tablet")), env.APP_URL));
  })
  .get("/visits", async (c) => c.json({ visits: await listLastVisits(c.get("deps").db, c.get("tablet")) }))
  /** An amount code behind the staff PIN (wrong PINs lock amount entry for a while). */
  .post("/amount-codes", validate("json", tabletAmountSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await createAmountCode(db, c.get("tablet"), c.req.valid("json"), env.APP_URL), 201);
  })
  .get("/amount-codes/:receiptId", validate("param", tabletReceiptParam), async (c) => {
    const { db } = c.get("deps");
    return c.json(await getAmountCodeStatus(db, c.get("tablet"), c.req.valid("param").receiptId));
  });

const tablet = new Hono<AppEnv>()
  /**
   * The tablet opens its one-time link: the link is spent and the tablet's credential set as an httpOnly cookie.
   * Registered before the screen's routes: their credential check does not apply here.
   */
  .post("/pair", validate("json", tabletPairSchema), async (c) => {
    const { db, env } = c.get("deps");
    await enforceThrottle(db, `tablet-pair:ip:${c.get("clientIp")}`, 600, 20);
    const paired = await pairTablet(db, c.req.valid("json").code);
    setCookie(c, TABLET_COOKIE, paired.token, {
      path: COOKIE_PATH,
      httpOnly: true,
      sameSite: "Strict",
      secure: env.APP_URL.startsWith("https://"),
      maxAge: COOKIE_MAX_AGE,
    });
    return c.json({ tablet: { name: paired.tablet.name } });
  })
  .route("/", screen);

export const tabletRoutes = new Hono<AppEnv>().route("/tablet", tablet);

const tabletParam = z.object({ tabletId: z.string().uuid("Tablette introuvable.") });

/** /api/backoffice/shops/:shopId/tablets: the owner's tablets (paired with a link shown once, listed, revoked). */
export const tabletsManageRoutes = new Hono<ShopEnv>()
  .get("/tablets", ownerOnly, async (c) => c.json({ tablets: await listTablets(c.get("deps").db, c.get("access")) }))
  .post("/tablets", ownerOnly, validate("json", tabletCreateSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await createTablet(db, c.get("access"), c.req.valid("json"), env.APP_URL), 201);
  })
  .post("/tablets/:tabletId/revoke", ownerOnly, validate("param", tabletParam), async (c) => {
    const { db } = c.get("deps");
    return c.json({ tablet: await revokeTablet(db, c.get("access"), c.req.valid("param").tabletId) });
  });
