import type { Context } from "hono";
import { cloneRawRequest } from "hono/request";
import { AppError } from "../../../domain/errors.ts";
import type { AppEnv } from "../../lib/context.ts";
import { consumeThrottle, refundThrottle } from "../../lib/throttle.ts";
import { AUTH_FALLBACK_FR, AUTH_MESSAGES_FR } from "./auth-messages.ts";

type Limit = { key: (ip: string, email: string) => string; window: number; max: number };

/**
 * better-auth allows 3 tries per 10 s on each of these paths, i.e. thousands a day;
 * together they get 6 failures per 5 minutes.
 */
function passwordCheckLimit(): Limit {
  return { key: (ip) => `password-check:ip:${ip}`, window: 300, max: 6 };
}

/**
 * Limits kept in the database, per e-mail (so a forged address changes nothing)
 * and per client address. Sign-in counts failures only: a success gives its
 * attempt back.
 */
const LIMITS: Record<string, { limits: Limit[]; refundOnSuccess?: boolean }> = {
  "/sign-in/email": {
    limits: [
      { key: (_ip, email) => `signin:email:${email}`, window: 10, max: 3 },
      { key: (ip) => `signin:ip:${ip}`, window: 60, max: 30 },
    ],
    refundOnSuccess: true,
  },
  "/email-otp/send-verification-otp": {
    limits: [
      { key: (_ip, email) => `otp:email:${email}`, window: 300, max: 3 },
      { key: (ip) => `otp:ip:${ip}`, window: 60, max: 20 },
    ],
  },
  "/sign-in/email-otp": {
    limits: [{ key: (_ip, email) => `otp-verify:email:${email}`, window: 300, max: 6 }],
    refundOnSuccess: true,
  },
  "/request-password-reset": {
    limits: [
      { key: (_ip, email) => `reset:email:${email}`, window: 900, max: 3 },
      { key: (ip) => `reset:ip:${ip}`, window: 60, max: 20 },
    ],
  },
  "/send-verification-email": {
    limits: [{ key: (_ip, email) => `verify:email:${email}`, window: 300, max: 3 }],
  },
  // Signed-in endpoints that check the password: a stolen session must not become a password oracle.
  "/change-password": { limits: [passwordCheckLimit()], refundOnSuccess: true },
  "/two-factor/enable": { limits: [passwordCheckLimit()], refundOnSuccess: true },
  "/two-factor/disable": { limits: [passwordCheckLimit()], refundOnSuccess: true },
  "/two-factor/verify-totp": { limits: [{ key: (ip) => `2fa:ip:${ip}`, window: 60, max: 6 }], refundOnSuccess: true },
  "/two-factor/verify-backup-code": {
    limits: [{ key: (ip) => `2fa:ip:${ip}`, window: 60, max: 6 }],
    refundOnSuccess: true,
  },
};

/** Paths limited here; better-auth's own limiter is switched off for them (auth.ts). */
export const OWN_LIMITED_PATHS = Object.keys(LIMITS);

/** The header our own middleware sets to the client's address (never the client's value). */
export const CLIENT_IP_HEADER = "x-fidele-client-ip";

/** Paths people may not reach directly: sign-up goes through /api/accounts/sign-up (no enumeration). */
export const BLOCKED_AUTH_PATHS = new Set(["/sign-up/email"]);

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

  const rule = c.req.method === "POST" && Object.hasOwn(LIMITS, subPath) ? LIMITS[subPath] : undefined;
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
    (Object.hasOwn(AUTH_MESSAGES_FR, code) ? AUTH_MESSAGES_FR[code] : undefined) ?? (response.status === 429 ? AUTH_MESSAGES_FR.RATE_LIMITED : AUTH_FALLBACK_FR);
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ code, message }), { status: response.status, headers });
}
