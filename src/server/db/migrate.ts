import path from "node:path";
import { fileURLToPath } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import { type Database, openDatabase } from "./client.ts";
import { functionsScript } from "./functions.ts";
import { RemotePGlite } from "./pglite-remote.ts";

export const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/**
 * Applies the committed SQL migrations, then the database functions (functions.ts). On a server, an
 * advisory lock lets several processes start at once: one applies, the others wait and find it done.
 * With `appRole` (PostgreSQL, `database` connected as the owner role): then grants that role what the server
 * needs and no more (functions/roles.sql; ADR 0034).
 */
export async function migrateDatabase(database: Database, options: { appRole?: string } = {}): Promise<void> {
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
    if (options.appRole) await client.query("select fidele_grant_app_role($1)", [options.appRole]);
  } catch (error) {
    await client.query("rollback").catch(() => {});
    throw error;
  } finally {
    await client.query("select pg_advisory_unlock(724011)").catch(() => {});
    client.release();
  }
}

/** The role a PostgreSQL address connects as. */
export const roleOf = (url: string) => decodeURIComponent(new URL(url).username) || "postgres";

/**
 * The server's database, migrated, from its settings (ADR 0034):
 * - DATABASE_URL and DATABASE_OWNER_URL: migrations, functions and grants run as the owner (a short pool, closed
 *   after), and the server connects as DATABASE_URL's role, which may only insert into and read the audit log;
 * - DATABASE_URL alone: one role does both, as before, with a warning (the log is append-only against the
 *   application's code only);
 * - neither: the embedded database in DATA_DIR (one role; what it can promise is in the ADR).
 */
export async function openServerDatabase(
  env: { DATABASE_URL?: string; DATABASE_OWNER_URL?: string; DATA_DIR: string },
  warn: (message: string) => void,
): Promise<Database> {
  if (!env.DATABASE_URL) {
    const database = await openDatabase({ dataDir: env.DATA_DIR });
    try {
      await migrateDatabase(database);
    } catch (error) {
      await database.close();
      throw error;
    }
    return database;
  }
  if (env.DATABASE_OWNER_URL) {
    const owner = await openDatabase({ url: env.DATABASE_OWNER_URL, poolSize: 2 });
    try {
      await migrateDatabase(owner, { appRole: roleOf(env.DATABASE_URL) });
    } finally {
      await owner.close();
    }
    return openDatabase({ url: env.DATABASE_URL });
  }
  warn(
    "PostgreSQL with one role: the server may alter its own tables, so the audit log is append-only against the " +
      "application's code only. Set DATABASE_OWNER_URL (the owner, for migrations) and make DATABASE_URL a role " +
      "without ownership (README, « Deux rôles PostgreSQL »).",
  );
  const database = await openDatabase({ url: env.DATABASE_URL });
  await migrateDatabase(database);
  return database;
}
