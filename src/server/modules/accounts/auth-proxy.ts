import type { Context } from "hono";
import { cloneRawRequest } from "hono/request";
import { AppError } from "../../../domain/errors.ts";
import type { AppEnv } from "../../lib/context.ts";
import { consumeThrottle, refundThrottle } from "../../lib/throttle.ts";
import { AUTH_FALLBACK_FR, AUTH_MESSAGES_FR } from "./auth-messages.ts";
import { AUTH_LIMITS, BLOCKED_AUTH_PATHS, CLIENT_IP_HEADER } from "./auth-limits.ts";

async function readEmail(c: Context): Promise<string> {
  try {
    const body = (await c.req.json()) as { email?: unknown };
    return typeof body.email === "string" ? body.email.trim().toLowerCase() : "";
  } catch {
    return "";
  }
}

export async function handleAuth(c: Context<AppEnv>): Promise<Response> {
  const { auth, db } = c.get("deps");
  const subPath = c.req.path.slice("/api/auth".length);
  if (BLOCKED_AUTH_PATHS.has(subPath)) throw new AppError("NOT_FOUND");

  const rule = c.req.method === "POST" && Object.hasOwn(AUTH_LIMITS, subPath) ? AUTH_LIMITS[subPath] : undefined;
  const consumed: string[] = [];
  if (rule) {
    const ip = c.get("clientIp");
    const email = await readEmail(c);
    for (const limit of rule.limits) {
      const key = limit.key(ip, email);
      const result = await consumeThrottle(db, key, limit.window, limit.max);
      consumed.push(key);
      if (!result.allowed) {
        c.header("Retry-After", String(result.retryAfter ?? limit.window));
        throw new AppError("RATE_LIMITED", {
          message: `throttled ${subPath}`,
          userMessage: `Trop de tentatives. Réessayez dans ${result.retryAfter ?? limit.window} secondes.`,
        });
      }
    }
  }

  // better-auth reads the client address from our own header only (STACK.md).
  const headers = new Headers(c.req.raw.headers);
  headers.set(CLIENT_IP_HEADER, c.get("clientIp"));
  // The body may have been read already (input-hygiene.ts reads JSON bodies once, into Hono's cache).
  const request = new Request(c.req.raw.bodyUsed ? await cloneRawRequest(c.req) : c.req.raw, { headers });
  const response = await auth.handler(request);

  if (rule?.refundOnSuccess && response.ok) {
    await Promise.all(consumed.map((key) => refundThrottle(db, key)));
  }
  return frenchErrors(response);
}

/** Rewrites better-auth's English error messages into French, keeping the code. */
async function frenchErrors(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get("content-type")?.includes("application/json")) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: string; message?: string } | null;
  if (!body) return response;
  const code = body.code ?? (response.status === 429 ? "RATE_LIMITED" : "AUTH_ERROR");
  const message =
    (Object.hasOwn(AUTH_MESSAGES_FR, code) ? AUTH_MESSAGES_FR[code] : undefined) ??
    (response.status === 429 ? AUTH_MESSAGES_FR.RATE_LIMITED : AUTH_FALLBACK_FR);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ code, message }), { status: response.status, headers });
}
