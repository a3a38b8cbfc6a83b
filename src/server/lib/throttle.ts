import { sql } from "drizzle-orm";
import { AppError } from "../../domain/errors.ts";
import { plural } from "../../domain/format.ts";
import type { Db } from "../db/client.ts";

/**
 * Atomically counts one attempt against `key` in a sliding window that starts at
 * the first attempt, in the database so every server process shares the count.
 * One statement: concurrent requests cannot all read a stale count.
 */
export function consumeThrottle(
  db: Db,
  key: string,
  windowSeconds: number,
  max: number,
): Promise<{ allowed: boolean; retryAfter: number | null }> {
  return consumeThrottles(db, [key], windowSeconds, max);
}

/** Gives back one attempt (a sign-in that succeeded does not count as a failure). */
export async function refundThrottle(db: Db, key: string): Promise<void> {
  await refundThrottles(db, [key]);
}

/**
 * consumeThrottle for several keys with the same window and limit (a counter's misses per shop and per address) in
 * one statement: one commit, where one a key made a busy counter wait on the disk once a key. Keys are taken in
 * sorted order, as refundThrottles takes them, so two requests never lock the same rows in opposite orders.
 */
export async function consumeThrottles(
  db: Db,
  keys: string[],
  windowSeconds: number,
  max: number,
): Promise<{ allowed: boolean; retryAfter: number | null }> {
  const sorted = [...new Set(keys)].sort();
  const result = await db.execute<{ count: number; retry_after: number }>(sql`
    insert into auth_throttle as t (key, window_start, count)
    values ${sql.join(
      sorted.map((key) => sql`(${key}, now(), 1)`),
      sql`, `,
    )}
    on conflict (key) do update set
      count = case when t.window_start <= now() - make_interval(secs => ${windowSeconds}) then 1 else t.count + 1 end,
      window_start = case when t.window_start <= now() - make_interval(secs => ${windowSeconds}) then now() else t.window_start end
    returning count, ceil(extract(epoch from (t.window_start + make_interval(secs => ${windowSeconds}) - now())))::int as retry_after`);
  const over = result.rows.filter((row) => Number(row.count) > max);
  if (over.length === 0) return { allowed: true, retryAfter: null };
  return {
    allowed: false,
    retryAfter: Math.max(1, ...over.map((row) => Number(row.retry_after ?? windowSeconds))),
  };
}

/** Gives back one attempt of each key, in one statement (see consumeThrottles). */
export async function refundThrottles(db: Db, keys: string[]): Promise<void> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return;
  await db.execute(
    sql`update auth_throttle set count = greatest(count - 1, 0) where key in (${sql.join(
      sorted.map((key) => sql`${key}`),
      sql`, `,
    )})`,
  );
}

/** Counts one attempt and answers 429 (in French, with the wait) when `key` is over its limit. */
export async function enforceThrottle(db: Db, key: string, windowSeconds: number, max: number): Promise<void> {
  const result = await consumeThrottle(db, key, windowSeconds, max);
  if (result.allowed) return;
  const wait = result.retryAfter ?? windowSeconds;
  const minutes = Math.ceil(wait / 60);
  throw new AppError("RATE_LIMITED", {
    message: `throttled ${key.split(":")[0]}`,
    userMessage: `Trop de tentatives. Réessayez dans ${wait >= 120 ? plural(minutes, "minute", "minutes") : plural(wait, "seconde", "secondes")}.`,
  });
}
