import { createHmac, timingSafeEqual } from "node:crypto";
import { parseSessionOutput, parseUserOutput } from "better-auth/db";
import { eq, sql } from "drizzle-orm";
import type { Auth, Session, SessionUser } from "../auth.ts";
import type { Db } from "../db/client.ts";
import { session as sessionTable, user as userTable } from "../db/schema/index.ts";

/**
 * The session of an API request, without better-auth's `getSession` on the hot path
 * (docs/decisions/0014-session-fast-path.md).
 *
 * The cookie is better-call's signed cookie: `encodeURIComponent(token + "." + base64(HMAC-SHA256(secret, token)))`
 * (node_modules/better-call/dist/crypto.mjs). We check the signature with node:crypto, then read session ⋈ user
 * by token in one prepared query, and keep the answer a few seconds in this process. Everything unusual — a
 * session due for its daily expiry refresh (`updateAge`), an expired one — goes to better-auth's own getSession,
 * so its rules (refresh, clean-up, cookie) stay the only ones.
 *
 * Revocation: better-auth's session and user hooks (auth.ts) forget the affected entries at once in this
 * process; other processes serving the same database see a revoked session for at most SESSION_CACHE_TTL_MS.
 * Any code that writes the `user` or `session` tables without better-auth must call forgetUser / forgetSession.
 */

export type SignedIn = { session: Session; user: SessionUser };
export type ResolvedSession = { signedIn: SignedIn | null; setCookies: string[] };

/** How long an answer may be reused in this process: the worst delay for a revocation made elsewhere. */
export const SESSION_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/** `signed` is the cookie value that was verified: on a hit, comparing it stands in for the HMAC. */
type Entry = { value: SignedIn; signed: string; cachedUntil: number };

export type SessionCache = {
  entries: Map<string, Entry>;
  /** Bumped by every invalidation: a lookup that started before one does not fill the cache. */
  generation: number;
  ttlMs: number;
  /** The clock (tests move it). */
  now: () => number;
};

const caches = new WeakMap<Db, SessionCache>();

/** The session cache of one database (one per app; the same pattern as the scan profiles). */
export function sessionCacheOf(db: Db): SessionCache {
  let cache = caches.get(db);
  if (!cache) {
    cache = { entries: new Map(), generation: 0, ttlMs: SESSION_CACHE_TTL_MS, now: () => Date.now() };
    caches.set(db, cache);
  }
  return cache;
}

/** A session was deleted, revoked or changed. */
export function forgetSession(db: Db, token: string): void {
  const cache = sessionCacheOf(db);
  cache.generation++;
  cache.entries.delete(token);
}

/** A user was changed (banned, role, name…) or deleted: forget every session of theirs. */
export function forgetUser(db: Db, userId: string): void {
  const cache = sessionCacheOf(db);
  cache.generation++;
  for (const [token, entry] of cache.entries) if (entry.value.user.id === userId) cache.entries.delete(token);
}

type AuthConfig = {
  cookieName: string;
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
export function readCookie(header: string | null, name: string): string | null {
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
export function verifySignedValue(signed: string | null, secret: string): string | null {
  const parts = splitSigned(signed);
  if (!parts) return null;
  return sameText(createHmac("sha256", secret).update(parts.value).digest("base64"), parts.signature) ? parts.value : null;
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

  const cache = sessionCacheOf(deps.db);
  const now = cache.now();
  const isDueForRefresh = (s: Session) =>
    new Date(s.expiresAt).getTime() - config.expiresInMs + config.updateAgeMs <= now &&
    // A "don't remember me" session is never refreshed (better-auth's rule), so it is not due.
    verifySignedValue(readCookie(cookieHeader, config.dontRememberName), config.secret) === null;

  const cached = cache.entries.get(token);
  // The very cookie verified before: no HMAC to compute again.
  const isVerified = cached ? sameText(cached.signed, signed) : verifySignedValue(signed, config.secret) === token;
  if (!isVerified) return signedOut;
  if (cached && cached.cachedUntil > now && new Date(cached.value.session.expiresAt).getTime() > now && !isDueForRefresh(cached.value.session)) {
    return isBanned(cached.value.user, now) ? signedOut : { signedIn: cached.value, setCookies: [] };
  }
  if (cached) cache.entries.delete(token);

  const generation = cache.generation;
  const [row] = await lookupOf(deps.db).execute({ token });
  if (!row) return signedOut;
  if (row.session.expiresAt.getTime() <= now || isDueForRefresh(row.session as Session)) {
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

/** SPEC §7.1 "who is online": a signed-in request marks its user seen, at most once a minute per user and process. */
export const HEARTBEAT_EVERY_MS = 60_000;
const lastBeats = new WeakMap<Db, Map<string, number>>();

export function heartbeat(db: Db, userId: string, now = Date.now()): void {
  let beats = lastBeats.get(db);
  if (!beats) {
    beats = new Map();
    lastBeats.set(db, beats);
  }
  if ((beats.get(userId) ?? 0) > now - HEARTBEAT_EVERY_MS) return;
  if (beats.size >= MAX_ENTRIES) beats.clear();
  beats.set(userId, now);
  // Not awaited: the request does not wait for its heartbeat, and a failed one only delays "online".
  db.execute(sql`update profiles set last_seen = now() where id = ${userId}`).catch(() => beats.delete(userId));
}
