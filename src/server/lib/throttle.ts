import { sql } from "drizzle-orm";
import { AppError } from "../../domain/errors.ts";
import { plural } from "../../domain/format.ts";
import type { Db } from "../db/client.ts";

/**
 * Atomically counts one attempt against `key` in a sliding window that starts at
 * the first attempt, in the database so every server process shares the count.
 * One statement: concurrent requests cannot all read a stale count.
 */
export async function consumeThrottle(
  db: Db,
  key: string,
  windowSeconds: number,
  max: number,
): Promise<{ allowed: boolean; retryAfter: number | null }> {
  const result = await db.execute<{ count: number; retry_after: number }>(sql`
    insert into auth_throttle as t (key, window_start, count) values (${key}, now(), 1)
    on conflict (key) do update set
      count = case when t.window_start <= now() - make_interval(secs => ${windowSeconds}) then 1 else t.count + 1 end,
      window_start = case when t.window_start <= now() - make_interval(secs => ${windowSeconds}) then now() else t.window_start end
    returning count, ceil(extract(epoch from (t.window_start + make_interval(secs => ${windowSeconds}) - now())))::int as retry_after`);
  const row = result.rows[0];
  const count = Number(row?.count ?? 1);
  return count <= max
    ? { allowed: true, retryAfter: null }
    : { allowed: false, retryAfter: Math.max(1, Number(row?.retry_after ?? windowSeconds)) };
}

/** Gives back one attempt (a sign-in that succeeded does not count as a failure). */
export async function refundThrottle(db: Db, key: string): Promise<void> {
  await db.execute(sql`update auth_throttle set count = greatest(count - 1, 0) where key = ${key}`);
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
