import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import type { Database } from "./client.ts";
import { functionsScript } from "./functions.ts";
import { RemotePGlite } from "./pglite-remote.ts";

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Applies the committed SQL migrations, then the database functions (functions.ts). On a server, an
 * advisory lock lets several processes start at once: one applies, the others wait and find it done.
 */
export async function migrateDatabase(database: Database): Promise<void> {
  if (database.kind === "pglite") {
    if (database.pglite instanceof RemotePGlite) {
      // In the worker: the migrations' statements never cross to this thread (ADR 0026).
      await database.pglite.migrate(MIGRATIONS_DIR, functionsScript());
      return;
    }
    const pglite = database.pglite as PGlite;
    await migratePglite(drizzlePglite(pglite), { migrationsFolder: MIGRATIONS_DIR });
    await pglite.exec(functionsScript());
    return;
  }
  const pool = database.pool;
  if (!pool) throw new Error("No pool");
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(724011)");
    await migratePg(database.db, { migrationsFolder: MIGRATIONS_DIR });
    await client.query(functionsScript());
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    await client.query("select pg_advisory_unlock(724011)").catch(() => {});
    client.release();
  }
}
