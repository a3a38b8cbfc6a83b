import { betterAuth } from "better-auth";
import { drizzleAdapter } from "better-auth/adapters/drizzle";
import { admin, emailOTP, organization, twoFactor } from "better-auth/plugins";
import { sql } from "drizzle-orm";
import type { Db } from "./db/client.ts";
import * as schema from "./db/schema/index.ts";
import type { Logger } from "./lib/logger.ts";
import { forgetSession, forgetUser } from "./lib/session-cache.ts";
import { consumeThrottle } from "./lib/throttle.ts";
import { CLIENT_IP_HEADER, OWN_LIMITED_PATHS } from "./modules/accounts/auth-limits.ts";
import type { Mailer } from "./modules/mail/mail.service.ts";
import { mailTemplates } from "./modules/mail/templates.ts";
import { recordAdminSignIn } from "./lib/audit.ts";
import { hashPassword, verifyPassword } from "./lib/password.ts";

/** SPEC §9: session cookie max age 400 days. */
export const SESSION_MAX_AGE_S = 400 * 24 * 60 * 60;

type AuthDeps = { db: Db; mailer: Mailer; secret: string; appUrl: string; logger?: Logger };

export function createAuth({ db, mailer: directMailer, secret, appUrl, logger }: AuthDeps) {
  // Mail leaves after the answer (issue 8, row 6): how long a send takes must not tell a known address from
  // an unknown one. The message is queued at once (the outbox write starts before the answer); failures are logged.
  const mailer: Mailer = {
    send: (message) => {
      directMailer.send(message).catch((error: unknown) => {
        logger?.error("mail: send failed", {
          kind: message.kind,
          error: error instanceof Error ? error.message : String(error),
        });
      });
      return Promise.resolve();
    },
  };
  return betterAuth({
    appName: "Fidèle",
    baseURL: appUrl,
    basePath: "/api/auth",
    secret,
    trustedOrigins: [appUrl],
    database: drizzleAdapter(db, { provider: "pg", schema, camelCase: false }),
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: { hash: hashPassword, verify: verifyPassword },
      // Required verification also stops sign-up from telling who has an account.
      requireEmailVerification: true,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user, url }) => {
        await mailer.send({ to: user.email, kind: "reset", ...mailTemplates.reset({ url }) });
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: true,
      autoSignInAfterVerification: true,
      expiresIn: 24 * 60 * 60,
      sendVerificationEmail: async ({ user, url }) => {
        await mailer.send({ to: user.email, kind: "confirmation", ...mailTemplates.confirmation({ url }) });
      },
    },
    session: {
      expiresIn: SESSION_MAX_AGE_S,
      updateAge: 24 * 60 * 60,
    },
    rateLimit: {
      enabled: true,
      window: 60,
      max: 120,
      customStorage: { consume: (key, rule) => consumeThrottle(db, `ba:${key}`, rule.window, rule.max) },
      // These paths have their own per-e-mail and per-address limits in
      // modules/accounts/auth-limits.ts (failures only, for sign-in). better-auth's
      // built-in 3-per-10-s per address counted successes too: a shop's shared
      // Wi-Fi would lock its customers out at the counter.
      customRules: Object.fromEntries(OWN_LIMITED_PATHS.map((path) => [path, false])),
    },
    advanced: {
      // better-auth turns its Origin/CSRF check off when NODE_ENV=test (or TEST is set):
      // keep it on everywhere, so tests exercise what production runs.
      disableOriginCheck: false,
      cookiePrefix: "fidele",
      useSecureCookies: appUrl.startsWith("https://"),
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { sameSite: "lax", path: "/", httpOnly: true },
      database: { generateId: () => crypto.randomUUID() },
    },
    databaseHooks: {
      user: {
        create: {
          after: async (user) => {
            await db.insert(schema.profiles).values({ id: user.id }).onConflictDoNothing();
          },
        },
        // The API's session cache (lib/session-cache.ts) forgets what better-auth changes, at once in this process:
        // a ban, a role, a name; sign-out and revocations below. Before *and* after: a lookup racing the write
        // cannot refill the cache with the old row.
        update: { after: async (user) => forgetUser(db, user.id) },
        delete: {
          before: async (user) => forgetUser(db, user.id),
          after: async (user) => forgetUser(db, user.id),
        },
      },
      session: {
        create: {
          after: async (session) => {
            await db.execute(sql`update profiles set last_seen = now() where id = ${session.userId}`);
            await recordAdminSignIn(db, session);
          },
        },
        update: { after: async (session) => forgetSession(db, session.token) },
        delete: {
          before: async (session) => forgetSession(db, session.token),
          after: async (session) => forgetSession(db, session.token),
        },
      },
    },
    plugins: [
      admin({ adminRoles: ["admin"], defaultRole: "user" }),
      organization({
        // Shops are made by POST /api/shops only (its rows, its per-owner cap under a lock): better-auth's own
        // /organization/create would make organizations outside that cap.
        allowUserToCreateOrganization: false,
        creatorRole: "owner",
        invitationExpiresIn: 7 * 24 * 60 * 60,
        sendInvitationEmail: async ({ email, id, organization: shop, inviter }) => {
          // The invited address rides along so signing in or up from the link starts with it filled in (issue 25
          // row 16); the page only pre-fills a field with it, the invitation itself still checks the account's address.
          const url = `${appUrl}/accept-invitation/${id}?email=${encodeURIComponent(email)}`;
          await mailer.send({
            to: email,
            kind: "invitation",
            ...mailTemplates.invitation({ url, shopName: shop.name, inviterName: inviter.user.name }),
          });
        },
      }),
      twoFactor({ issuer: "Fidèle", backupCodeOptions: { amount: 10, length: 10 } }),
      emailOTP({
        otpLength: 6,
        expiresIn: 5 * 60,
        allowedAttempts: 3,
        disableSignUp: true,
        sendVerificationOTP: async ({ email, otp, type }) => {
          if (type !== "sign-in") return;
          await mailer.send({ to: email, kind: "sign-in-code", ...mailTemplates["sign-in-code"]({ code: otp }) });
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
export type SessionUser = Auth["$Infer"]["Session"]["user"];
export type Session = Auth["$Infer"]["Session"]["session"];
