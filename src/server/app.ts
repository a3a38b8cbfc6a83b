import { existsSync } from "node:fs";
import path from "node:path";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { AppError } from "../domain/errors.ts";
import { matchRoute } from "../domain/routes.ts";
import { apiBodyLimit, closeAfterRefusedBody } from "./lib/body-size.ts";
import { compressText, edgeHeaders } from "./lib/edge-headers.ts";
import type { AppEnv, Deps } from "./lib/context.ts";
import { createOpenApiDocument, DOCS_ASSETS, DOCS_HTML, DOCS_INIT_JS, readDocsAsset } from "./lib/openapi.ts";
import { inputHygiene } from "./lib/input-hygiene.ts";
import { sameSiteOnly } from "./lib/same-site.ts";
import { heartbeat, resolveSession } from "./lib/sessions.ts";
import { createSpaIndex } from "./lib/spa-index.ts";
import { metricsRoute } from "./lib/metrics-route.ts";
import { requestLog } from "./lib/request-log.ts";
import { accountsRoutes } from "./modules/accounts/accounts.routes.ts";
import { handleAuth } from "./modules/accounts/auth-proxy.ts";
import { adminRoutes } from "./modules/admin/admin.routes.ts";
import { cardsManageRoutes, cardsRoutes } from "./modules/cards/cards.routes.ts";
import { contentRoutes } from "./modules/content/content.routes.ts";
import { articlePathExists } from "./modules/content/content.service.ts";
import { contestsManageRoutes, contestsRoutes } from "./modules/contests/contests.routes.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { rewardsManageRoutes, rewardsRoutes } from "./modules/rewards/rewards.routes.ts";
import { shopsManageRoutes, shopsRoutes } from "./modules/shops/shops.routes.ts";
import { auditSettings } from "./lib/audit-settings.ts";
import { type ShopEnv, shopAccess } from "./lib/shop-access.ts";
import { messagesManageRoutes, messagesRoutes } from "./modules/messages/messages.routes.ts";
import { prepaidManageRoutes, prepaidRoutes } from "./modules/prepaid/prepaid.routes.ts";
import { walletWatch } from "./modules/wallet/updates.service.ts";
import { tabletRoutes, tabletsManageRoutes } from "./modules/till/tablet.routes.ts";
import { tillManageRoutes, tillRoutes } from "./modules/till/till.routes.ts";
import { walletRoutes } from "./modules/wallet/wallet.routes.ts";
import { referralsManageRoutes, referralsRoutes } from "./modules/referrals/referrals.routes.ts";
import { webhooksManageRoutes } from "./modules/webhooks/webhooks.routes.ts";

type AppOptions = {
  deps: Deps;
  /** Folder of the built web app (index.html, assets); not served when absent. */
  clientDir?: string;
};

/** The client's address: the socket's, or the proxy's last hop when TRUST_PROXY is set. */
function clientIpOf(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").pop()?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? "unknown";
  } catch {
    return "unknown";
  }
}

/**
 * The back office of one shop, /api/backoffice/shops/:shopId/…: each module's manage routes behind one guard (its id
 * and the member's role checked once, lib/shop-access.ts) and one audit of settings changes (lib/audit-settings.ts).
 */
const shopBackoffice = new Hono<ShopEnv>()
  .use(shopAccess)
  .use(auditSettings)
  .route("/", shopsManageRoutes)
  .route("/", cardsManageRoutes)
  .route("/", rewardsManageRoutes)
  .route("/", contestsManageRoutes)
  .route("/", messagesManageRoutes)
  .route("/", prepaidManageRoutes)
  .route("/", referralsManageRoutes)
  .route("/", tillManageRoutes)
  .route("/", tabletsManageRoutes)
  .route("/", webhooksManageRoutes);

/**
 * /api: each module's routes name their own paths (docs/decisions/0041); a shop's back office is the one router
 * above.
 */
const api = new Hono<AppEnv>()
  // After a successful write, the wallet passes it may have changed are compared (off without wallet settings).
  .use(walletWatch)
  .route("/", healthRoutes)
  .route("/", accountsRoutes)
  .route("/", adminRoutes)
  .route("/", contentRoutes)
  .route("/", shopsRoutes)
  .route("/", cardsRoutes)
  .route("/", rewardsRoutes)
  .route("/", contestsRoutes)
  .route("/backoffice/shops/:shopId", shopBackoffice)
  .route("/", messagesRoutes)
  .route("/", walletRoutes)
  .route("/", prepaidRoutes)
  .route("/", referralsRoutes)
  .route("/", tillRoutes)
  .route("/", tabletRoutes);

/** The typed API for `hc<AppType>` in the web app. */
export type AppType = typeof api;

export function createApp({ deps, clientDir }: AppOptions) {
  const app = new Hono<AppEnv>();
  const isHttps = deps.env.APP_URL.startsWith("https://");

  // First: its request id is on every line logged while the request is served, its timing covers all the rest.
  app.use(requestLog);

  app.use(async (c, next) => {
    c.set("deps", deps);
    c.set("clientIp", clientIpOf(c, deps.env.TRUST_PROXY));
    c.set("user", null);
    c.set("session", null);
    await next();
  });

  // The security policy, the request id, and on /api no-store, on Node's response before the route (ADR 0056).
  app.use(edgeHeaders({ https: isHttps }));
  // Text answers (the app's JavaScript above all) cross a phone's network gzipped.
  app.use(compressText());

  // The edge, before any work (issue 8): cross-site writes refused, one body limit, every string checked once.
  app.use("/api/*", closeAfterRefusedBody);
  app.use("/api/*", sameSiteOnly(deps.env.APP_URL));
  app.use("/api/*", apiBodyLimit());
  app.use("/api/*", inputHygiene);

  // The session: a signed-cookie check and one query, cached a few seconds (lib/sessions.ts, ADR 0014).
  app.use("/api/*", async (c, next) => {
    if (c.req.path.startsWith("/api/auth/")) return next();
    const { signedIn, setCookies } = await resolveSession(deps, c.req.raw.headers).catch(() => ({
      signedIn: null,
      setCookies: [],
    }));
    if (signedIn) {
      c.set("user", signedIn.user);
      c.set("session", signedIn.session);
      heartbeat(deps.db, signedIn.user.id);
    }
    // better-auth's refresh of a session (or the clean-up of an expired one) sets cookies: pass them on.
    for (const cookie of setCookies) c.header("Set-Cookie", cookie, { append: true });
    await next();
  });

  app.on(["GET", "POST"], "/api/auth/*", async (c) => {
    const response = await handleAuth(c);
    // better-auth answers an unknown path with an empty 404: keep the one error shape.
    if (response.status === 404 && !response.headers.get("content-type")?.includes("json"))
      throw new AppError("NOT_FOUND");
    return response;
  });
  app.route("/api", api);

  // The API described by itself, from this app's routes and the zod schemas they validate (lib/openapi.ts).
  const openApiDocument = createOpenApiDocument(app, deps.auth);
  app.get("/api/openapi.json", async (c) => c.json(await openApiDocument()));
  app.get("/api/docs", (c) => c.html(DOCS_HTML));
  app.get("/api/docs/:file", (c) => {
    const file = c.req.param("file");
    if (file === "init.js") return c.body(DOCS_INIT_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" });
    const asset = Object.hasOwn(DOCS_ASSETS, file) ? DOCS_ASSETS[file] : undefined; // not "constructor" & co.
    if (!asset) throw new AppError("NOT_FOUND");
    return c.body(new Uint8Array(readDocsAsset(file)), 200, { "Content-Type": asset.type });
  });

  // Prometheus, outside /api (no session, no same-site check): a bearer token of its own (lib/metrics-route.ts).
  app.get("/metrics", metricsRoute);

  app.all("/api/*", () => {
    throw new AppError("NOT_FOUND", { message: "unknown API route" });
  });

  if (clientDir && existsSync(path.join(clientDir, "index.html"))) {
    const root = path.relative(process.cwd(), clientDir) || ".";
    const indexHtml = createSpaIndex(clientDir);
    app.use("/assets/*", async (c, next) => {
      await next();
      if (c.res.ok) c.header("Cache-Control", "public, max-age=31536000, immutable");
    });
    // The build writes .br and .gz beside each file (vite.config.ts, precompress): sent as they are, brotli first.
    const assets = serveStatic({ root, precompressed: true });
    // Files only (a name with an extension); every other path is a route of the SPA.
    app.use("*", (c, next) => (/\.[a-z0-9]+$/i.test(c.req.path) ? assets(c, next) : next()));
    // The SPA: known routes answer 200, others 404 — the app renders its own 404 page either way.
    app.get("*", async (c) => {
      c.header("Cache-Control", "no-cache");
      // An article page of a slug with no article is a 404 too (the app shows the same page).
      const known =
        Boolean(matchRoute(c.req.path)) && (await articlePathExists(c.req.path).catch(() => null)) !== false;
      return c.html(indexHtml(c.req.path), known ? 200 : 404);
    });
  }

  app.notFound((c) => c.json(new AppError("NOT_FOUND").toJSON(), 404));

  app.onError((error, c) => {
    if (error instanceof AppError) {
      if (error.status >= 500) deps.logger.error(error.message, { code: error.code });
      return c.json(error.toJSON(), error.status as 400);
    }
    if (error instanceof HTTPException) {
      const status = error.status;
      const code =
        status === 413
          ? "PAYLOAD_TOO_LARGE"
          : status === 401
            ? "UNAUTHENTICATED"
            : status === 404
              ? "NOT_FOUND"
              : "VALIDATION";
      const userMessage = status === 400 ? "La requête est mal formée (JSON invalide)." : undefined;
      return c.json(new AppError(code, { userMessage }).toJSON(), status);
    }
    const cause = error instanceof Error && error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
    deps.logger.error("unhandled error", {
      path: c.req.path,
      error: `${error instanceof Error ? error.stack : String(error)}${cause}`,
    });
    return c.json(new AppError("INTERNAL").toJSON(), 500);
  });

  return app;
}
