import { existsSync } from "node:fs";
import path from "node:path";
import { getConnInfo } from "@hono/node-server/conninfo";
import { serveStatic } from "@hono/node-server/serve-static";
import { type Context, Hono } from "hono";
import { compress } from "hono/compress";
import { HTTPException } from "hono/http-exception";
import { secureHeaders } from "hono/secure-headers";
import { AppError } from "../domain/errors.ts";
import { matchRoute } from "../domain/routes.ts";
import { apiBodyLimit, closeAfterRefusedBody } from "./lib/body-size.ts";
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
import { adminRoutes, platformRoutes } from "./modules/admin/admin.routes.ts";
import { cardsManageRoutes } from "./modules/cards/cards-manage.routes.ts";
import { cardsRoutes } from "./modules/cards/cards.routes.ts";
import { profilesRoutes } from "./modules/cards/customer-profile.routes.ts";
import { allCustomersRoutes } from "./modules/cards/all-customers.routes.ts";
import { rewardsManageRoutes } from "./modules/rewards/rewards-manage.routes.ts";
import { productRoutes } from "./modules/rewards/product.routes.ts";
import { auditSettings } from "./lib/audit-settings.ts";
import { shopClosureRoutes } from "./modules/shops/shop-closure.routes.ts";
import { redemptionsRoutes, rewardsRoutes } from "./modules/rewards/rewards.routes.ts";
import { contestsApi, contestsManageRoutes } from "./modules/contests/contests.routes.ts";
import { contentRoutes } from "./modules/content/content.routes.ts";
import { articlePathExists } from "./modules/content/content.service.ts";
import { healthRoutes } from "./modules/health/health.routes.ts";
import { invitationsRoutes, shopsManageRoutes } from "./modules/shops/shops-manage.routes.ts";
import { messagesManageRoutes, messagesRoutes } from "./modules/messages/messages.routes.ts";
import { emailRoutes } from "./modules/newsletter/email.routes.ts";
import { newsletterRoutes } from "./modules/newsletter/newsletter.routes.ts";
import { shopsRoutes } from "./modules/shops/shops.routes.ts";
import { smsManageRoutes, smsRoutes } from "./modules/sms/sms.routes.ts";
import { type ShopEnv, shopAccess } from "./lib/shop-access.ts";

export type AppOptions = {
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

/** The back-office of one shop: its id and the member's role checked once, for every feature. */
const shopBackoffice = new Hono<ShopEnv>()
  .use(shopAccess)
  .use(auditSettings)
  .route("/", shopsManageRoutes)
  .route("/", cardsManageRoutes)
  .route("/", rewardsManageRoutes)
  .route("/", contestsManageRoutes)
  .route("/", smsManageRoutes)
  .route("/", productRoutes)
  .route("/", shopClosureRoutes);

const api = new Hono<AppEnv>()
  .route("/health", healthRoutes)
  .route("/accounts", accountsRoutes)
  .route("/admin", adminRoutes)
  .route("/content", contentRoutes)
  .route("/shops", shopsRoutes)
  .route("/cards", cardsRoutes)
  .route("/profiles", profilesRoutes)
  .route("/backoffice/shops/:shopId", shopBackoffice)
  .route("/backoffice/customers", allCustomersRoutes)
  .route("/backoffice/invitations", invitationsRoutes)
  .route("/backoffice/platform", platformRoutes)
  .route("/rewards", rewardsRoutes)
  .route("/redemptions", redemptionsRoutes)
  .route("/", contestsApi)
  .route("/messages/shops/:shopId", new Hono<ShopEnv>().use(shopAccess).route("/", messagesManageRoutes))
  .route("/messages", messagesRoutes)
  .route("/newsletter/shops/:shopId", new Hono<ShopEnv>().use(shopAccess).route("/", newsletterRoutes))
  .route("/email", emailRoutes)
  .route("/sms", smsRoutes);

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

  // Text answers (the app's JavaScript above all) cross a phone's network gzipped.
  app.use(compress());

  app.use(
    secureHeaders({
      contentSecurityPolicy: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the /scanner page compile the QR reader's WebAssembly (no JS eval).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:", "blob:"],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        workerSrc: ["'self'", "blob:"],
        manifestSrc: ["'self'"],
        mediaSrc: ["'self'", "blob:"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
      strictTransportSecurity: isHttps ? "max-age=63072000; includeSubDomains" : false,
      xFrameOptions: "DENY",
      referrerPolicy: "strict-origin-when-cross-origin",
      xContentTypeOptions: "nosniff",
      crossOriginEmbedderPolicy: false,
      crossOriginResourcePolicy: "same-origin",
      permissionsPolicy: { camera: ["self"], geolocation: ["self"], microphone: [] },
    }),
  );

  // Signed-in answers must never sit in a shared or browser cache.
  app.use("/api/*", async (c, next) => {
    await next();
    // Set on the response's own headers: c.header() after next() rebuilds the response around a stream
    // (measured: a third of the app's own CPU per scan). compress() above would add Vary that way: do it here.
    c.res.headers.set("Cache-Control", "no-store");
    if (!/accept-encoding/i.test(c.res.headers.get("Vary") ?? "")) c.res.headers.append("Vary", "Accept-Encoding");
  });

  // The edge, before any work (issue 8): cross-site writes refused, one body limit, every string checked once.
  app.use("/api/*", closeAfterRefusedBody);
  app.use("/api/*", sameSiteOnly(deps.env.APP_URL));
  app.use("/api/*", apiBodyLimit());
  app.use("/api/*", inputHygiene);

  // The session: a signed-cookie check and one query, cached a few seconds (lib/sessions.ts, ADR 0014).
  app.use("/api/*", async (c, next) => {
    if (c.req.path.startsWith("/api/auth/")) return next();
    const { signedIn, setCookies } = await resolveSession(deps, c.req.raw.headers).catch(() => ({ signedIn: null, setCookies: [] }));
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
    if (response.status === 404 && !response.headers.get("content-type")?.includes("json")) throw new AppError("NOT_FOUND");
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
      const known = Boolean(matchRoute(c.req.path)) && (await articlePathExists(c.req.path).catch(() => null)) !== false;
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
      const code = status === 413 ? "PAYLOAD_TOO_LARGE" : status === 401 ? "UNAUTHENTICATED" : status === 404 ? "NOT_FOUND" : "VALIDATION";
      const userMessage = status === 400 ? "La requête est mal formée (JSON invalide)." : undefined;
      return c.json(new AppError(code, { userMessage }).toJSON(), status);
    }
    const cause = error instanceof Error && error.cause instanceof Error ? ` (cause: ${error.cause.message})` : "";
    deps.logger.error("unhandled error", { path: c.req.path, error: `${error instanceof Error ? error.stack : String(error)}${cause}` });
    return c.json(new AppError("INTERNAL").toJSON(), 500);
  });

  return app;
}
