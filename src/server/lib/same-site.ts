import type { MiddlewareHandler } from "hono";
import { AppError } from "../../domain/errors.ts";

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Sec-Fetch-Site values a browser sends for this site's own pages (or a typed URL / bookmark). */
const SAME_SITE_FETCH = new Set(["same-origin", "none"]);

function hasBody(headers: Headers): boolean {
  if (headers.has("transfer-encoding")) return true;
  const length = headers.get("content-length");
  return length !== null && length.trim() !== "0";
}

/** `application/json`, or a `+json` type, with any parameters (charset). */
export function isJsonType(contentType: string | undefined | null): boolean {
  if (!contentType) return false;
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The unsubscribe address of a marketing e-mail, and its page's form (modules/messages/messages.routes.ts). */
const UNSUBSCRIBE_PATH = /^\/api\/email\/unsubscribe\/[A-Za-z0-9_-]{1,400}\.[A-Za-z0-9_-]{1,100}(\/preferences)?$/;

/**
 * The one exception (RFC 8058): a mail client's one-click unsubscribe is a form POST
 * from nowhere (no Origin, no cookie, `application/x-www-form-urlencoded` or
 * `multipart/form-data`). The signed token in its path is its only authority; it
 * reads no session, so a forged cross-site POST can do nothing without the token.
 */
function isOneClickUnsubscribe(method: string, path: string, contentType: string | undefined): boolean {
  if (method !== "POST" || !UNSUBSCRIBE_PATH.test(path)) return false;
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "application/x-www-form-urlencoded" || type === "multipart/form-data";
}

/**
 * The other exception: an SMS gateway posting a reply as a form (Twilio's inbound webhook sends `From` and `Body`
 * as `application/x-www-form-urlencoded`). Its shared secret (modules/messages/unsubscribe/sms-stop.ts) is its only authority; it reads no
 * session, so a forged form POST without the secret is a 401.
 */
export function isGatewayFormWebhook(method: string, path: string, contentType: string | undefined): boolean {
  if (method !== "POST" || path !== "/api/sms/webhook") return false;
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/x-www-form-urlencoded";
}

/**
 * Cross-site requests refused on every state-changing /api route (issue 8, row 7):
 * the Origin (or, without it, Sec-Fetch-Site) must be this site's, and a body must be
 * JSON — a cross-site form or `text/plain` fetch can neither pass as this site nor send
 * JSON without a CORS preflight, which this API never grants. A request with neither
 * header (a script, curl) is refused only when it carries a cookie: without one, it
 * acts as nobody.
 */
export function sameSiteOnly(appUrl: string): MiddlewareHandler {
  const ownOrigin = new URL(appUrl).origin;
  return async (c, next) => {
    if (!STATE_CHANGING.has(c.req.method)) return next();
    const type = c.req.header("content-type");
    if (isOneClickUnsubscribe(c.req.method, c.req.path, type) || isGatewayFormWebhook(c.req.method, c.req.path, type)) {
      return next();
    }
    const headers = c.req.raw.headers;
    const origin = headers.get("origin");
    const fetchSite = headers.get("sec-fetch-site");
    const crossSite =
      origin !== null
        ? origin !== ownOrigin
        : fetchSite !== null
          ? !SAME_SITE_FETCH.has(fetchSite.toLowerCase())
          : headers.has("cookie");
    if (crossSite) {
      throw new AppError("FORBIDDEN", {
        message: `cross-site ${c.req.method} refused (origin ${origin ?? "none"}, sec-fetch-site ${fetchSite ?? "none"})`,
        userMessage: "Cette demande ne vient pas de Fidèle : elle a été refusée.",
      });
    }
    const contentType = headers.get("content-type");
    if ((contentType !== null || hasBody(headers)) && !isJsonType(contentType)) {
      throw new AppError("UNSUPPORTED_MEDIA_TYPE", {
        message: `content-type ${contentType ?? "none"} refused`,
        userMessage: "Format de requête non pris en charge : les données doivent être envoyées en JSON.",
      });
    }
    return next();
  };
}
