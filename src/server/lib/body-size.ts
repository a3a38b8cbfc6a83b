import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { matchedRoutes } from "hono/route";
import { AppError } from "../../domain/errors.ts";
import { formatKilobytes } from "../../domain/format.ts";

/** Every JSON body of the API fits in this; image routes set their own, larger limit. */
const JSON_BODY_LIMIT = 64 * 1024;

type RouteLimit = { maxSize: number; userMessage: string };
const ROUTE_LIMIT = Symbol("routeBodyLimit");
type Marked = MiddlewareHandler & { [ROUTE_LIMIT]?: RouteLimit };

/**
 * A route's own, larger body limit (the image uploads, sent as data URLs). It only marks the route: the API's one
 * limit middleware (apiBodyLimit) applies it before anything reads the body, so the body is read at most once
 * (input-hygiene.ts reads JSON bodies into Hono's cache) and never past the route's limit.
 */
export function routeBodyLimit(maxSize: number, userMessage: string): MiddlewareHandler {
  const marker: Marked = (_c, next) => next();
  marker[ROUTE_LIMIT] = { maxSize, userMessage };
  return marker;
}

/** A reward's or a prize lot's photo (400 KB once decoded) as a data URL, with the rest of the form. */
export const photoBodyLimit = routeBodyLimit(700_000, "La photo est trop lourde : 400 Ko au plus.");

/** A shop's import file (issue 28 item 4): 20 000 lines of customers and balances, sent as text in JSON. */
export const importBodyLimit = routeBodyLimit(
  3_000_000,
  "Le fichier est trop lourd : 2 Mo au plus (environ 20 000 lignes).",
);

/** The limit the route this request reaches declared with routeBodyLimit, if any. */
function routeLimit(c: Parameters<MiddlewareHandler>[0]): RouteLimit | undefined {
  for (const route of matchedRoutes(c)) {
    const limit = route.method !== "ALL" ? (route.handler as Marked)[ROUTE_LIMIT] : undefined;
    if (limit) return limit;
  }
  return undefined;
}

function limiter(maxSize: number, userMessage: string): MiddlewareHandler {
  const tooLarge = () => {
    throw new AppError("PAYLOAD_TOO_LARGE", { message: `body over ${maxSize} bytes`, userMessage });
  };
  const counted = bodyLimit({ maxSize, onError: tooLarge });
  return (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    // A body announced by its length is judged by the header alone, without touching the request's stream, so
    // the server adapter later reads it straight from Node's request (no web stream, no Request object built:
    // issue 11, a tenth of a request's CPU). Node's parser holds the body to that length.
    const length = c.req.header("content-length");
    if (length !== undefined && c.req.header("transfer-encoding") === undefined) {
      return Number.parseInt(length, 10) > maxSize ? tooLarge() : next();
    }
    // Chunked: counted as it arrives, refused as soon as it passes the limit.
    return counted(c, next);
  };
}

/**
 * One body limit for the whole API (issue 8, row 8): a larger body is refused from its
 * Content-Length, or as soon as a chunked body passes the limit, never read whole.
 * A route with its own limit (routeBodyLimit) gets that one instead.
 */
export function apiBodyLimit(maxSize = JSON_BODY_LIMIT): MiddlewareHandler {
  const json = limiter(maxSize, `La requête est trop volumineuse : ${formatKilobytes(maxSize)} au plus.`);
  const own = new WeakMap<RouteLimit, MiddlewareHandler>();
  return (c, next) => {
    const limit = routeLimit(c);
    if (!limit) return json(c, next);
    let middleware = own.get(limit);
    if (!middleware) {
      middleware = limiter(limit.maxSize, limit.userMessage);
      own.set(limit, middleware);
    }
    return middleware(c, next);
  };
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
