import type { Database } from "../db/client.ts";

/**
 * One call of a database function that returns a JSON answer as `r`, in one round trip: a named prepared statement
 * on a pool (planned once per connection, ADR 0030), a plain query on PGlite.
 */
export async function callJson<T>(database: Database, name: string, text: string, values: unknown[]): Promise<T> {
  if (database.pool) {
    const res = await database.pool.query<{ r: T }>({ name, text, values });
    return res.rows[0]!.r;
  }
  const res = await database.pglite!.query<{ r: T }>(text, values);
  return res.rows[0]!.r;
}
