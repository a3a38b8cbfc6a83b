import type { ServerResponse } from "node:http";
import type { MiddlewareHandler } from "hono";
import { compress } from "hono/compress";
import type { AppEnv } from "./context.ts";

/**
 * The headers every answer carries (ADR 0056): the security policy (what `hono/secure-headers` sent, same names and
 * values), the request id, and on /api `Cache-Control: no-store` and `Vary: Accept-Encoding`.
 *
 * Under @hono/node-server they are set on Node's own response before the route runs, so that a route's answer keeps
 * the adapter's light path: its few headers as a plain object, written as they are. Setting them on `c.res.headers`
 * after the route (as secureHeaders does) made the adapter build a WHATWG `Headers` of sixteen entries and convert it
 * back for Node on every request — measured at about 40 % of the server's own CPU per scan. Where there is no Node
 * response (`app.request` in the tests), they are set on the answer after the route, with the same result.
 * Node's `writeHead` lets a header of the route's answer win over one set here; /api's `Cache-Control` is never set
 * by a route to anything but no-store (every route answering with one says no-store).
 */
export function edgeHeaders(options: { https: boolean }): MiddlewareHandler<AppEnv> {
  const always = securityHeaders(options.https);
  const api: [string, string][] = [...always, ["Cache-Control", "no-store"], ["Vary", "Accept-Encoding"]];
  return async (c, next) => {
    const headers = c.req.path === "/api" || c.req.path.startsWith("/api/") ? api : always;
    const requestId = c.get("requestId");
    const outgoing = (c.env as { outgoing?: ServerResponse } | undefined)?.outgoing;
    if (outgoing && typeof outgoing.setHeader === "function") {
      for (const [name, value] of headers) outgoing.setHeader(name, value);
      outgoing.setHeader("X-Request-Id", requestId);
      await next();
      return;
    }
    await next();
    for (const [name, value] of headers) c.res.headers.set(name, value);
    c.res.headers.set("X-Request-Id", requestId);
  };
}

/** What `hono/secure-headers` sent with the options the app gave it (health.test and https.test hold the values). */
function securityHeaders(https: boolean): [string, string][] {
  const csp = [
    "default-src 'self'",
    // 'wasm-unsafe-eval' lets the /scanner page compile the QR reader's WebAssembly (no JS eval).
    "script-src 'self' 'wasm-unsafe-eval'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "media-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
  return [
    ["Content-Security-Policy", csp],
    ["Cross-Origin-Opener-Policy", "same-origin"],
    ["Cross-Origin-Resource-Policy", "same-origin"],
    ["Origin-Agent-Cluster", "?1"],
    ["Permissions-Policy", "camera=(self), geolocation=(self), microphone=()"],
    ["Referrer-Policy", "strict-origin-when-cross-origin"],
    ...(https ? ([["Strict-Transport-Security", "max-age=63072000; includeSubDomains"]] as [string, string][]) : []),
    ["X-Content-Type-Options", "nosniff"],
    ["X-DNS-Prefetch-Control", "off"],
    ["X-Download-Options", "noopen"],
    ["X-Frame-Options", "DENY"],
    ["X-Permitted-Cross-Domain-Policies", "none"],
    ["X-XSS-Protection", "0"],
  ];
}

const gzipOrDeflate = /\b(gzip|deflate)\b/i;

/**
 * Text answers (the app's JavaScript above all) cross a phone's network gzipped (`hono/compress`). A request that
 * accepts neither gzip nor deflate (a till, a script, the benches) is not looked at: the check reads the answer's
 * headers, which would take the answer off the adapter's light path (see edgeHeaders).
 */
export function compressText(): MiddlewareHandler<AppEnv> {
  const gzip = compress();
  return (c, next) => (gzipOrDeflate.test(c.req.header("accept-encoding") ?? "") ? gzip(c, next) : next());
}
