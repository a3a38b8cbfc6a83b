import { randomUUID } from "node:crypto";
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./context.ts";
import { withLogContext } from "./logger.ts";

/** A caller's request id is kept when it is a plain token (a proxy's UUID or the like); anything else is replaced. */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Every request: an id (X-Request-Id when sane, else a new UUID; echoed in the answer and on every line logged
 * while it is served), then one JSON line — method, route pattern, status, duration, shop and user ids — and its
 * latency in the metrics. Only ids: never an address, a name, a token or the query string (ADR 0038).
 */
export const requestLog: MiddlewareHandler<AppEnv> = async (c, next) => {
  const started = performance.now();
  const given = c.req.header("x-request-id");
  const requestId = given && SANE_REQUEST_ID.test(given) ? given : randomUUID();
  c.set("requestId", requestId); // echoed in X-Request-Id by lib/edge-headers.ts
  await withLogContext({ requestId }, next);
  const seconds = (performance.now() - started) / 1000;
  const { logger, metrics } = c.get("deps");
  const route = c.req.routePath;
  const status = c.res.status;
  metrics.observeRequest(c.req.method, route, status, seconds);
  const access = (c.var as { access?: { shopId?: string } }).access;
  logger.info("request", {
    requestId,
    method: c.req.method,
    route,
    status,
    durationMs: Math.round(seconds * 1e4) / 10,
    ...(access?.shopId ? { shopId: access.shopId } : {}),
    ...(c.get("user") ? { userId: c.get("user")?.id } : {}),
  });
};
