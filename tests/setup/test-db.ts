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
 * TEST_DATABASE_URL's role is the owner; an application role for this database (`<database>_app`, made here when
 * missing) gets its grants from the same start path the server takes with DATABASE_URL and DATABASE_OWNER_URL.
 */
export async function openAppRoleDatabase(): Promise<{ database: Database; appUrl: string; appRole: string }> {
  const ownerUrl = inject("testDatabaseUrl");
  if (!ownerUrl) throw new Error("openAppRoleDatabase needs TEST_DATABASE_URL");
  const url = new URL(ownerUrl);
  const appRole = `${url.pathname.slice(1).replace(/[^a-z0-9_]/gi, "_")}_app`.toLowerCase();
  const owner = await openDatabase({ url: ownerUrl, poolSize: 1 });
  try {
    await owner.pool!.query(`do $$ begin
      if not exists (select 1 from pg_roles where rolname = '${appRole}') then create role ${appRole} login; end if;
    exception when duplicate_object then null; end $$`);
  } finally {
    await owner.close();
  }
  url.username = appRole;
  url.password = "";
  const appUrl = url.toString();
  const database = await openServerDatabase(
    { DATABASE_URL: appUrl, DATABASE_OWNER_URL: ownerUrl, DATA_DIR: "" },
    () => {},
  );
  return { database, appUrl, appRole };
}
