import { randomBytes } from "node:crypto";
import pg from "pg";
import { openDatabase } from "../../src/server/db/client.ts";
import { migrateDatabase } from "../../src/server/db/migrate.ts";

/**
 * A migrated database of its own on the test PostgreSQL server (named after the test database,
 * e.g. fidele_ci_…_jobs_1a2b3c), for tests whose background work (schedules, sweeps) must not
 * reach the rows of other test files. `drop()` removes it, even with connections still open.
 */
export async function createScratchDatabase(testDatabaseUrl: string, tag: string) {
  const base = new URL(testDatabaseUrl);
  const name = `${base.pathname.slice(1)}_${tag}_${randomBytes(3).toString("hex")}`;
  const admin = new URL(testDatabaseUrl);
  admin.pathname = "/postgres";
  const run = async (sql: string) => {
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`create database "${name}"`);
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ url: url.toString(), poolSize: 2 });
  await migrateDatabase(database);
  await database.close();
  return {
    url: url.toString(),
    drop: () => run(`drop database if exists "${name}" with (force)`),
  };
}
