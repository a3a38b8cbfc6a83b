import { readFile } from "node:fs/promises";
import { inject } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { openServerDatabase } from "../../src/server/db/migrate.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (tar), made once per run by the global setup. */
    pgliteTemplate: string;
    /** Set when the suite runs on a PostgreSQL server (TEST_DATABASE_URL). */
    testDatabaseUrl: string;
  }
}

/**
 * The database of one test file: a PostgreSQL pool when TEST_DATABASE_URL is set
 * (migrated once by the global setup), else an in-memory PGlite loaded from the
 * migrated template (~0.5 s instead of ~4 s for a fresh one).
 */
export async function openTestDatabase(): Promise<Database> {
  const url = inject("testDatabaseUrl");
  if (url) return openDatabase({ url, poolSize: 10 });
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
  const database = await openServerDatabase({ DATABASE_URL: appUrl, DATABASE_OWNER_URL: ownerUrl, DATA_DIR: "" }, () => {});
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
