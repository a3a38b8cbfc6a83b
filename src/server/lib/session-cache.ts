import type { Db } from "../db/client.ts";

/**
 * The API's session cache (sessions.ts fills and reads it, ADR 0014) and its revocation. better-auth's session
 * and user hooks (auth.ts) forget the affected entries at once in this process; other processes serving the same
 * database see a revoked session for at most SESSION_CACHE_TTL_MS. Any code that writes the `user` or `session`
 * tables without better-auth must call forgetUser / forgetSession.
 *
 * A file of its own so that auth.ts can forget entries without importing sessions.ts, whose answers are typed with
 * auth.ts's own types: of an entry, the cache reads only whose session it is.
 */

/** How long an answer may be reused in this process: the worst delay for a revocation made elsewhere. */
export const SESSION_CACHE_TTL_MS = 5_000;
/** Entries kept at most per process (sessions, heartbeats). */
export const MAX_ENTRIES = 10_000;

type Cached = { user: { id: string } };

/** `signed` is the cookie value that was verified: on a hit, comparing it stands in for the HMAC. */
type Entry<Value extends Cached> = { value: Value; signed: string; cachedUntil: number };

export type SessionCache<Value extends Cached = Cached> = {
  entries: Map<string, Entry<Value>>;
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
