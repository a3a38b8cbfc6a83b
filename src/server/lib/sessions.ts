import { createHmac, timingSafeEqual } from "node:crypto";
import { parseSessionOutput, parseUserOutput } from "better-auth/db";
import { serializeSignedCookie } from "better-call";
import { eq, sql } from "drizzle-orm";
import type { Auth, Session, SessionUser } from "../auth.ts";
import type { Db } from "../db/client.ts";
import { session as sessionTable, user as userTable } from "../db/schema/index.ts";
import { MAX_ENTRIES, type SessionCache, sessionCacheOf } from "./session-cache.ts";

/**
 * The session of an API request, without better-auth's `getSession` on the hot path
 * (docs/decisions/0014-session-fast-path.md).
 *
 * The cookie is better-call's signed cookie: `encodeURIComponent(token + "." + base64(HMAC-SHA256(secret, token)))`
 * (node_modules/better-call/dist/crypto.mjs). We check the signature with node:crypto, then read session ⋈ user
 * by token in one prepared query, and keep the answer a few seconds in this process. A session due for its daily
 * expiry refresh (`updateAge`) is refreshed here as better-auth's getSession does it — its adapter's update (hooks
 * included) and its cookie with the session cookie's own attributes — without reading the session and the user
 * again (on a platform nearly every shopper's first request of the day is one: 2 queries instead of 4). Anything
 * else unusual — an expired session, a refresh that finds no row — goes to better-auth's own getSession, so its
 * rules (clean-up, cookie) stay the only ones. tests/api/session-fast-path.test.ts holds both refreshes equal.
 *
 * The answers are kept in session-cache.ts, which also holds their revocation (forgetUser / forgetSession).
 */

type SignedIn = { session: Session; user: SessionUser };
type ResolvedSession = { signedIn: SignedIn | null; setCookies: string[] };

type AuthConfig = {
  cookieName: string;
  cookieAttributes: Parameters<typeof serializeSignedCookie>[3];
  dontRememberName: string;
  secret: string;
  expiresInMs: number;
  updateAgeMs: number;
  options: Awaited<Auth["$context"]>["options"];
};

const configs = new WeakMap<Auth, Promise<AuthConfig>>();

function configOf(auth: Auth): Promise<AuthConfig> {
  let config = configs.get(auth);
  if (!config) {
    config = auth.$context.then((ctx) => ({
      cookieName: ctx.authCookies.sessionToken.name,
      cookieAttributes: ctx.authCookies.sessionToken.attributes,
      dontRememberName: ctx.authCookies.dontRememberToken.name,
      secret: ctx.secret,
      expiresInMs: ctx.sessionConfig.expiresIn * 1000,
      updateAgeMs: ctx.sessionConfig.updateAge * 1000,
      options: ctx.options,
    }));
    configs.set(auth, config);
  }
  return config;
}

/** The first value of cookie `name` (better-call also keeps the first), URI-decoded; null when absent. */
function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    try {
      return decodeURIComponent(value);
    } catch {
      return value;
    }
  }
  return null;
}

/** The value of a better-call signed cookie (`value.signature`), unchecked; null when malformed. */
function splitSigned(signed: string | null): { value: string; signature: string } | null {
  if (!signed) return null;
  const dot = signed.lastIndexOf(".");
  if (dot < 1) return null;
  const signature = signed.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return null;
  return { value: signed.slice(0, dot), signature };
}

const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The value of a better-call signed cookie when its signature holds, else null. */
function verifySignedValue(signed: string | null, secret: string): string | null {
  const parts = splitSigned(signed);
  if (!parts) return null;
  return sameText(createHmac("sha256", secret).update(parts.value).digest("base64"), parts.signature)
    ? parts.value
    : null;
}

const statements = new WeakMap<Db, ReturnType<typeof prepareLookup>>();

function prepareLookup(db: Db) {
  return db
    .select({ session: sessionTable, user: userTable })
    .from(sessionTable)
    .innerJoin(userTable, eq(userTable.id, sessionTable.userId))
    .where(eq(sessionTable.token, sql.placeholder("token")))
    .limit(1)
    .prepare("fidele_session_by_token");
}

function lookupOf(db: Db) {
  let statement = statements.get(db);
  if (!statement) {
    statement = prepareLookup(db);
    statements.set(db, statement);
  }
  return statement;
}

const isBanned = (user: SessionUser, nowMs: number) =>
  Boolean(user.banned) && (!user.banExpires || new Date(user.banExpires).getTime() > nowMs);

/** better-auth's answer (refreshing or cleaning up the session), with the cookies it sets. */
async function viaBetterAuth(auth: Auth, headers: Headers): Promise<{ value: SignedIn | null; setCookies: string[] }> {
  const { headers: answerHeaders, response } = await auth.api.getSession({ headers, returnHeaders: true });
  return { value: (response as SignedIn | null) ?? null, setCookies: answerHeaders.getSetCookie() };
}

/**
 * better-auth's refresh of a due session (api/routes/session.mjs, `needsRefresh`): the adapter's update (its hooks
 * run: the session cache forgets the token) and the session cookie again for the full lifetime. Null when the row
 * is gone (a concurrent sign-out): the caller hands the request to better-auth.
 */
async function refreshDueSession(
  auth: Auth,
  config: AuthConfig,
  token: string,
  user: Record<string, unknown>,
): Promise<{ value: SignedIn; setCookies: string[] } | null> {
  const ctx = await auth.$context;
  const updated = await ctx.internalAdapter.updateSession(token, {
    expiresAt: new Date(Date.now() + config.expiresInMs),
    updatedAt: new Date(),
  });
  if (!updated) return null;
  const cookie = await serializeSignedCookie(config.cookieName, token, config.secret, {
    ...config.cookieAttributes,
    maxAge: config.expiresInMs / 1000,
  });
  return {
    value: {
      session: parseSessionOutput(config.options, updated) as Session,
      user: parseUserOutput(config.options, user as never) as SessionUser,
    },
    setCookies: [cookie],
  };
}

/** The signed-in user of a request (null when signed out, forged, revoked, expired or banned). */
export async function resolveSession(deps: { auth: Auth; db: Db }, headers: Headers): Promise<ResolvedSession> {
  const signedOut: ResolvedSession = { signedIn: null, setCookies: [] };
  const cookieHeader = headers.get("cookie");
  if (!cookieHeader) return signedOut;
  const config = await configOf(deps.auth);
  const signed = readCookie(cookieHeader, config.cookieName);
  const parts = splitSigned(signed);
  if (!signed || !parts) return signedOut;
  const token = parts.value;

  // Every entry of the cache was put there below, from this type.
  const cache = sessionCacheOf(deps.db) as SessionCache<SignedIn>;
  const now = cache.now();
  const isDueForRefresh = (s: Session) =>
    new Date(s.expiresAt).getTime() - config.expiresInMs + config.updateAgeMs <= now &&
    // A "don't remember me" session is never refreshed (better-auth's rule), so it is not due.
    verifySignedValue(readCookie(cookieHeader, config.dontRememberName), config.secret) === null;

  const cached = cache.entries.get(token);
  // The very cookie verified before: no HMAC to compute again.
  const isVerified = cached ? sameText(cached.signed, signed) : verifySignedValue(signed, config.secret) === token;
  if (!isVerified) return signedOut;
  if (
    cached &&
    cached.cachedUntil > now &&
    new Date(cached.value.session.expiresAt).getTime() > now &&
    !isDueForRefresh(cached.value.session)
  ) {
    return isBanned(cached.value.user, now) ? signedOut : { signedIn: cached.value, setCookies: [] };
  }
  if (cached) cache.entries.delete(token);

  const generation = cache.generation;
  const [row] = await lookupOf(deps.db).execute({ token });
  if (!row) return signedOut;
  const expired = row.session.expiresAt.getTime() <= now;
  const due = !expired && isDueForRefresh(row.session as Session);
  const refreshed = due ? await refreshDueSession(deps.auth, config, token, row.user) : null;
  if (refreshed) {
    const { value, setCookies } = refreshed;
    return { signedIn: isBanned(value.user, now) ? null : value, setCookies };
  }
  if (expired || due) {
    const { value, setCookies } = await viaBetterAuth(deps.auth, headers);
    return { signedIn: value && !isBanned(value.user, now) ? value : null, setCookies };
  }
  const value: SignedIn = {
    session: parseSessionOutput(config.options, row.session) as Session,
    user: parseUserOutput(config.options, row.user) as SessionUser,
  };
  if (isBanned(value.user, now)) return signedOut;
  if (cache.generation === generation) {
    if (cache.entries.size >= MAX_ENTRIES) cache.entries.delete(cache.entries.keys().next().value as string);
    cache.entries.set(token, { value, signed, cachedUntil: now + cache.ttlMs });
  }
  return { signedIn: value, setCookies: [] };
}

/**
 * SPEC §7.1 "who is online": a signed-in request marks its user seen, at most once a minute per user and process.
 * The marks are written together, once a second (one commit for all, where one a request made a platform's
 * shoppers — each seen once — wait on the disk's WAL flush: the platform bench's main wait). A read of who is online
 * in this process writes the pending ones first; another process sees them a second late at most.
 */
const HEARTBEAT_EVERY_MS = 60_000;
const HEARTBEAT_FLUSH_MS = 1_000;
type Beats = { last: Map<string, number>; pending: Set<string>; timer: ReturnType<typeof setTimeout> | null };
const beatsByDb = new WeakMap<Db, Beats>();

export function heartbeat(db: Db, userId: string, now = Date.now()): void {
  let beats = beatsByDb.get(db);
  if (!beats) {
    beats = { last: new Map(), pending: new Set(), timer: null };
    beatsByDb.set(db, beats);
  }
  if ((beats.last.get(userId) ?? 0) > now - HEARTBEAT_EVERY_MS) return;
  if (beats.last.size >= MAX_ENTRIES) beats.last.clear();
  beats.last.set(userId, now);
  beats.pending.add(userId);
  // Not awaited: the request does not wait for its heartbeat, and a failed one only delays "online".
  beats.timer ??= setTimeout(() => void flushHeartbeats(db), HEARTBEAT_FLUSH_MS);
  beats.timer.unref?.();
}

/** Writes the pending marks of this process now (before reading who is online). */
export async function flushHeartbeats(db: Db): Promise<void> {
  const beats = beatsByDb.get(db);
  if (!beats) return;
  if (beats.timer) clearTimeout(beats.timer);
  beats.timer = null;
  if (beats.pending.size === 0) return;
  const ids = [...beats.pending];
  beats.pending.clear();
  await db
    .execute(
      sql`update profiles set last_seen = now() where id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`,
    )
    .catch(() => {
      for (const id of ids) beats.last.delete(id);
    });
}
