import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import { AppError } from "../../domain/errors.ts";
import { formatKilobytes } from "../../domain/format.ts";

/** Every JSON body of the API fits in this; image routes set their own, larger limit. */
export const JSON_BODY_LIMIT = 64 * 1024;

/** True when the route this request reaches has its own `bodyLimit` (the image uploads). */
function routeHasOwnLimit(c: Parameters<MiddlewareHandler>[0]): boolean {
  return matchedRoutes(c).some((route) => route.method !== "ALL" && route.handler.name === "bodyLimit");
}

/**
 * One body limit for the whole API (issue 8, row 8): a larger body is refused from its
 * Content-Length, or as soon as a chunked body passes the limit, never read whole.
 * A route with its own `bodyLimit` (hono/body-limit) keeps it instead.
 */
export function apiBodyLimit(maxSize = JSON_BODY_LIMIT): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize,
    onError: () => {
      throw new AppError("PAYLOAD_TOO_LARGE", {
        message: `body over ${maxSize} bytes`,
        userMessage: `La requête est trop volumineuse : ${formatKilobytes(maxSize)} au plus.`,
      });
    },
  });
  return (c, next) => (routeHasOwnLimit(c) ? next() : limit(c, next));
}

/**
 * A 413 is answered before the body is read: the rest of it is still on the wire, so
 * the connection cannot carry another request. Say so (`Connection: close`) instead of
 * promising keep-alive and dropping the socket (issue 8, row 9).
 */
export const closeAfterRefusedBody: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.status === 413) c.res.headers.set("Connection", "close");
};
