import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
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
 * What a migrated database is: a SHA-256 over every migration file (and the journal) and the functions' script.
 * Recorded as the comment of the `drizzle` schema (the migrator's own) once a migration run succeeds; a start that
 * finds the same value has nothing to apply and skips both steps (ADR 0037: ~0.3 s of CPU on PGlite's path to
 * healthy). A different value, or none, runs everything as before.
 */
export function schemaFingerprint(script = functionsScript()): string {
  const hash = createHash("sha256");
  const files = [
    "meta/_journal.json",
    ...readdirSync(MIGRATIONS_DIR)
      .filter((f) => f.endsWith(".sql"))
      .sort(),
  ];
  for (const file of files)
    hash
      .update(`${file}\0`)
      .update(readFileSync(path.join(MIGRATIONS_DIR, file)))
      .update("\0");
  return hash.update(script).digest("hex");
}

const FINGERPRINT_SQL =
  "select obj_description(oid, 'pg_namespace') as comment from pg_namespace where nspname = 'drizzle'";
/** The fingerprint is hex: safe to write as a literal (COMMENT takes no parameter). */
const recordFingerprint = (fingerprint: string) => `comment on schema drizzle is 'fidele ${fingerprint}'`;
const isCurrent = (rows: { comment: string | null }[], fingerprint: string) =>
  rows[0]?.comment === `fidele ${fingerprint}`;

/**
 * Applies the committed SQL migrations, then the database functions (functions.ts), unless the database says it
 * already has exactly these (schemaFingerprint). On a server, an advisory lock lets several processes start at once:
 * one applies, the others wait and find it done.
 * With `appRole` (PostgreSQL, `database` connected as the owner role): then grants that role what the server
 * needs and no more (functions/roles.sql; ADR 0034), at every start, fingerprint or not.
 */
export async function migrateDatabase(database: Database, options: { appRole?: string } = {}): Promise<void> {
  const script = functionsScript();
  const fingerprint = schemaFingerprint(script);
  if (database.kind === "pglite") {
    const pglite = database.pglite as PGlite | RemotePGlite;
    if (isCurrent((await pglite.query<{ comment: string | null }>(FINGERPRINT_SQL)).rows, fingerprint)) return;
    if (pglite instanceof RemotePGlite) {
      // In the worker: the migrations' statements never cross to this thread (ADR 0026).
      await pglite.migrate(MIGRATIONS_DIR, script);
    } else {
      await migratePglite(drizzlePglite(pglite), { migrationsFolder: MIGRATIONS_DIR });
      await pglite.exec(script);
    }
    await pglite.exec(recordFingerprint(fingerprint));
    return;
  }
  const pool = database.pool;
  if (!pool) throw new Error("No pool");
  // Nothing to apply and no role to grant: the fast path (ADR 0037). Grants are re-run at every start.
  if (!options.appRole && isCurrent((await pool.query<{ comment: string | null }>(FINGERPRINT_SQL)).rows, fingerprint))
    return;
  const client = await pool.connect();
  try {
    await client.query("select pg_advisory_lock(724011)");
    // Another process may have applied them while this one waited for the lock.
    if (!isCurrent((await client.query<{ comment: string | null }>(FINGERPRINT_SQL)).rows, fingerprint)) {
      await migratePg(database.db, { migrationsFolder: MIGRATIONS_DIR });
      await client.query(script);
      await client.query(recordFingerprint(fingerprint));
    }
    // Grants follow every table a migration added; idempotent, so they run at every start.
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
    const database = await openDatabase({ dataDir: env.DATA_DIR, template: true });
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
