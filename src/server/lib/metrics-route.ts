import { createHash, timingSafeEqual } from "node:crypto";
import type { Handler } from "hono";
import { AppError } from "../../domain/errors.ts";
import type { AppEnv } from "./context.ts";

const digest = (value: string) => createHash("sha256").update(value).digest();

/**
 * GET /metrics: the registry in Prometheus's text format, for `Authorization: Bearer $METRICS_TOKEN`.
 * Without METRICS_TOKEN the route does not exist (404); a missing or wrong token is a 401.
 */
export const metricsRoute: Handler<AppEnv> = async (c) => {
  const { env, metrics } = c.get("deps");
  if (!env.METRICS_TOKEN) throw new AppError("NOT_FOUND");
  const given = /^Bearer (.+)$/i.exec(c.req.header("authorization") ?? "")?.[1]?.trim() ?? "";
  // Compared as digests: equal lengths, constant time.
  if (!timingSafeEqual(digest(given), digest(env.METRICS_TOKEN))) {
    c.header("WWW-Authenticate", 'Bearer realm="metrics"');
    throw new AppError("UNAUTHENTICATED");
  }
  return c.body(await metrics.registry.metrics(), 200, { "Content-Type": metrics.registry.contentType });
};
