import { type Context, Hono } from "hono";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { validate } from "../../lib/validate.ts";
import { buildApplePass, PKPASS_TYPE } from "./apple-pass.ts";
import { googleSaveUrl } from "./google-wallet.ts";
import { issuePass, recordGoogleLink, shopLogoPng } from "./passes.service.ts";
import { googlePassRef } from "./updates.service.ts";
import { type AppleConfig, walletConfig, walletStatus } from "./wallet-config.ts";
import {
  applePassToken,
  authorizedPass,
  currentPass,
  modifiedSince,
  registerDevice,
  unregisterDevice,
  updatedSerials,
} from "./webservice.service.ts";

const cardParam = z.object({ cardId: z.string().uuid("Carte introuvable.") });

/** What Apple's devices put in the paths: the device library id, the pass type, the serial (a card id). */
const deviceId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/);
const passTypeParam = z.object({ deviceId, passTypeId: z.string().min(1).max(200) });
const registrationParam = passTypeParam.extend({ serial: z.string().uuid() });
const passParam = z.object({ passTypeId: z.string().min(1).max(200), serial: z.string().uuid() });
const registrationBody = z.object({ pushToken: z.string().regex(/^[A-Za-z0-9]{16,256}$/) });
const updatedQuery = z.object({ passesUpdatedSince: z.string().max(32).optional() });
const logBody = z.object({ logs: z.array(z.string().max(2000)).max(50) });

const googleOff = () =>
  new AppError("NOT_FOUND", {
    userMessage: "Google Wallet n'est pas proposé sur ce service.",
    message: "google wallet off",
  });

const appleOff = () =>
  new AppError("NOT_FOUND", {
    userMessage: "Apple Wallet n'est pas proposé sur ce service.",
    message: "apple wallet off",
  });

/** The Apple settings when this pass type is this instance's, else 404 (Apple Wallet off, or another type). */
function appleFor(c: Context<AppEnv>, passTypeId: string): AppleConfig {
  const apple = walletConfig(c.get("deps").env).apple;
  if (!apple || apple.passTypeId !== passTypeId) throw appleOff();
  return apple;
}

/**
 * The PassKit web service (the pass's webServiceURL is /api/wallet/apple): what iPhones call, authenticated by the
 * pass's own token (`Authorization: ApplePass …`), with no cookie and no Origin (lib/same-site.ts lets them through
 * for that reason). https://developer.apple.com/documentation/walletpasses
 */
const apple = new Hono<AppEnv>()
  .post(
    "/v1/devices/:deviceId/registrations/:passTypeId/:serial",
    validate("param", registrationParam),
    validate("json", registrationBody),
    async (c) => {
      const { deviceId, passTypeId, serial } = c.req.valid("param");
      appleFor(c, passTypeId);
      const { db } = c.get("deps");
      const pass = await authorizedPass(db, serial, applePassToken(c.req.header("authorization")));
      const created = await registerDevice(db, pass, deviceId, c.req.valid("json").pushToken);
      return c.body(null, created ? 201 : 200);
    },
  )
  .delete(
    "/v1/devices/:deviceId/registrations/:passTypeId/:serial",
    validate("param", registrationParam),
    async (c) => {
      const { deviceId, passTypeId, serial } = c.req.valid("param");
      appleFor(c, passTypeId);
      const { db } = c.get("deps");
      const pass = await authorizedPass(db, serial, applePassToken(c.req.header("authorization")));
      await unregisterDevice(db, pass, deviceId);
      return c.body(null, 200);
    },
  )
  .get(
    "/v1/devices/:deviceId/registrations/:passTypeId",
    validate("param", passTypeParam),
    validate("query", updatedQuery),
    async (c) => {
      const { deviceId, passTypeId } = c.req.valid("param");
      appleFor(c, passTypeId);
      const updated = await updatedSerials(c.get("deps").db, deviceId, c.req.valid("query").passesUpdatedSince);
      return updated ? c.json(updated) : c.body(null, 204);
    },
  )
  .get("/v1/passes/:passTypeId/:serial", validate("param", passParam), async (c) => {
    const { passTypeId, serial } = c.req.valid("param");
    const config = appleFor(c, passTypeId);
    const { db } = c.get("deps");
    await authorizedPass(db, serial, applePassToken(c.req.header("authorization")));
    const pass = await currentPass(db, serial);
    if (!pass) throw new AppError("UNAUTHENTICATED", { message: "wallet: the pass's card is gone" });
    const lastModified = pass.row.updatedAt.toUTCString();
    if (!modifiedSince(pass.row.updatedAt, c.req.header("if-modified-since"))) {
      return c.body(null, 304, { "last-modified": lastModified });
    }
    const body = buildApplePass(config, pass.row, pass.view.content, await shopLogoPng(db, pass.view.shopId));
    return c.body(new Uint8Array(body), 200, { "content-type": PKPASS_TYPE, "last-modified": lastModified });
  })
  /** Wallet's error messages about our passes, kept in the server's log. */
  .post("/v1/log", validate("json", logBody), async (c) => {
    const { db, logger } = c.get("deps");
    await enforceThrottle(db, `wallet-log:ip:${c.get("clientIp")}`, 3600, 60);
    for (const line of c.req.valid("json").logs) logger.info("wallet: device log", { line: line.slice(0, 500) });
    return c.body(null, 200);
  });

/** /api/wallet: which wallets this instance offers, and the shopper's pass of one of their cards. */
const wallet = new Hono<AppEnv>()
  /** `{ apple, google }`: what the pages offer (nothing at all when the operator set neither). */
  .get("/status", (c) => c.json(walletStatus(c.get("deps").env)))
  /** The card's Apple pass, signed; the first download makes the pass (and its updates' token). */
  .get("/cards/:cardId/apple.pkpass", validate("param", cardParam), async (c) => {
    const user = currentUser(c);
    const { db, env } = c.get("deps");
    const apple = walletConfig(env).apple;
    if (!apple) throw appleOff();
    await enforceThrottle(db, `wallet-pass:user:${user.id}`, 3600, 60);
    const { row, view } = await issuePass(db, user.id, c.req.valid("param").cardId);
    const body = buildApplePass(apple, row, view.content, await shopLogoPng(db, view.shopId));
    return c.body(new Uint8Array(body), 200, {
      "content-type": PKPASS_TYPE,
      "content-disposition": `attachment; filename="${view.shopSlug}.pkpass"`,
      "last-modified": row.updatedAt.toUTCString(),
    });
  })
  /** « Ajouter à Google Wallet »: to Google's save page, the card's class and object in a signed JWT. */
  .get("/cards/:cardId/google", validate("param", cardParam), async (c) => {
    const user = currentUser(c);
    const { db, env } = c.get("deps");
    const google = walletConfig(env).google;
    if (!google) throw googleOff();
    await enforceThrottle(db, `wallet-pass:user:${user.id}`, 3600, 60);
    const { view } = await issuePass(db, user.id, c.req.valid("param").cardId);
    const url = await googleSaveUrl(google, googlePassRef(view, env.APP_URL), view.content);
    await recordGoogleLink(db, view);
    return c.redirect(url, 302);
  });

/** The wallet module's routes: /api/wallet. */
export const walletRoutes = new Hono<AppEnv>().route("/wallet", wallet).route("/wallet/apple", apple);
