import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { openServerDatabase } from "../../src/server/db/migrate.ts";
import { createScratchDatabase } from "./scratch-db.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tar), made once per run by the global setup. */
    pgliteTemplate: string;
    /** Set when the suite runs on a PostgreSQL server (TEST_DATABASE_URL). */
    testDatabaseUrl: string;
  }
}

/**
 * The database of one test file: a PostgreSQL pool when TEST_DATABASE_URL is set (migrated once by the global
 * setup, shared by every file at once), else a PGlite loaded from the migrated template.
 *
 * On PGlite the files of one worker process share one database, opened at the worker's first file and kept while it
 * lives (its `close` is a no-op): loading the template costs 1.1–1.7 s of CPU, and the api and e2e suites open one for
 * nearly every file. Files already share the PostgreSQL database with the files running beside them, so every test
 * filters by its own rows; sharing on PGlite asks nothing more of them. `fresh: true` gives a database of the file's
 * own (to close), for a test that needs an empty instance (keys made once, a schema to compare).
 */
export async function openTestDatabase(options: { fresh?: boolean } = {}): Promise<Database> {
  const url = inject("testDatabaseUrl");
  if (url) return openDatabase({ url, poolSize: 10 });
  if (options.fresh) return openTemplateCopy();
  sharedPglite ??= openTemplateCopy().catch((error: unknown) => {
    sharedPglite = undefined;
    throw error;
  });
  const database = await sharedPglite;
  return { ...database, close: async () => {} };
}

/**
 * A database no other test file reaches, for a file whose background work (a sweep years ahead, a job engine's
 * schedules) must not touch other files' rows nor run their leftover jobs: a scratch database on PostgreSQL, a fresh
 * PGlite otherwise. Close it (the app's close does), then `drop()`.
 */
export async function openOwnDatabase(
  tag: string,
  poolSize = 4,
): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = inject("testDatabaseUrl");
  if (!url) return { database: await openTestDatabase({ fresh: true }), drop: async () => {} };
  const scratch = await createScratchDatabase(url, tag);
  return { database: await openDatabase({ url: scratch.url, poolSize }), drop: scratch.drop };
}

let sharedPglite: Promise<Database> | undefined;

async function openTemplateCopy(): Promise<Database> {
  const template = await readFile(inject("pgliteTemplate"));
  return openDatabase({ memory: true, from: new Blob([new Uint8Array(template)]) });
}

/**
 * PostgreSQL only: the database as the server sees it with two roles (README, « Deux rôles PostgreSQL »; ADR 0034).
 * `ownerUrl` (TEST_DATABASE_URL by default) is the owner; the application role (`<test database>_app`, one for the
 * cluster, made here when missing) gets its grants from the same start path the server takes with DATABASE_URL and
 * DATABASE_OWNER_URL.
 */
export async function openAppRoleDatabase(
  ownerUrl = inject("testDatabaseUrl"),
): Promise<{ database: Database; appUrl: string; appRole: string }> {
  if (!ownerUrl) throw new Error("openAppRoleDatabase needs TEST_DATABASE_URL");
  const testDatabase = new URL(inject("testDatabaseUrl")).pathname.slice(1);
  const appRole = `${testDatabase.replace(/[^a-z0-9_]/gi, "_")}_app`.toLowerCase();
  const owner = await openDatabase({ url: ownerUrl, poolSize: 1 });
  try {
    await owner.pool!.query(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${appRole}') then create role ${appRole} login; end if;
    exception when duplicate_object then null; end $$`);
  } finally {
    await owner.close();
  }
  const url = new URL(ownerUrl);
  url.username = appRole;
  url.password = "";
  const appUrl = url.toString();
  const database = await openServerDatabase(
    { DATABASE_URL: appUrl, DATABASE_OWNER_URL: ownerUrl, DATA_DIR: "" },
    () => {},
  );
  return { database, appUrl, appRole };
}

/** Removes the application role openAppRoleDatabase made (its objects go back to the owner), once nothing uses it. */
export async function dropAppRole(appRole: string): Promise<void> {
  const owner = await openDatabase({ url: inject("testDatabaseUrl"), poolSize: 1 });
  try {
    await owner.pool!.query(`reassign owned by ${appRole} to current_user`);
    await owner.pool!.query(`drop owned by ${appRole}`);
    await owner.pool!.query(`drop role if exists ${appRole}`);
  } finally {
    await owner.close();
  }
}
