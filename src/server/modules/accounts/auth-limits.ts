/**
 * What stands in front of better-auth (auth-proxy.ts applies it; auth.ts configures better-auth to match): our
 * limits per path, the paths nobody may reach, the header carrying the client's address. A file that imports
 * nothing, so auth.ts can read it without importing the proxy (which imports the request context, which names
 * auth.ts's types).
 */

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
export const AUTH_LIMITS: Record<string, { limits: Limit[]; refundOnSuccess?: boolean }> = {
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
export const OWN_LIMITED_PATHS = Object.keys(AUTH_LIMITS);

/** The header our own middleware sets to the client's address (never the client's value). */
export const CLIENT_IP_HEADER = "x-fidele-client-ip";

/** Paths people may not reach directly: sign-up goes through /api/accounts/sign-up (no enumeration). */
export const BLOCKED_AUTH_PATHS = new Set(["/sign-up/email"]);
