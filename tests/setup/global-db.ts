import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/server/db/client.ts";
import { migrateDatabase, schemaFingerprint } from "../../src/server/db/migrate.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const CACHE_DIR = path.join(ROOT, "node_modules/.cache/fidele-tests");

/**
 * Once per run: a migrated PGlite template, and migrations on TEST_DATABASE_URL when set.
 *
 * The template is kept between runs, named by what makes it (the schema's fingerprint: every migration and the
 * database functions; and PGlite's version): `npm test` starts three suites that each need it, and a run after a
 * change elsewhere needs the same one. Migrating a fresh PGlite costs ~6 s of CPU.
 */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? "";
  if (url) {
    const database = await openDatabase({ url });
    await migrateDatabase(database);
    // The suite's commits need not wait for the disk (a test never outlives the server's own crash): each commit's
    // fsync cost 2–8 ms here, thousands of times. A process killed by a test loses nothing by it (the WAL is written
    // to the kernel at commit; only a crash of the machine could lose the last ones). New connections take it.
    await database.db.execute(
      sql`do $$ begin execute format('alter database %I set synchronous_commit = off', current_database()); end $$`,
    );
    await database.close();
  }
  project.provide("pgliteTemplate", await pgliteTemplate());
  project.provide("testDatabaseUrl", url);
}

async function pgliteTemplate(): Promise<string> {
  const pgliteVersion = JSON.parse(
    readFileSync(path.join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
  ).version;
  const file = path.join(CACHE_DIR, `pglite-template-${pgliteVersion}-${schemaFingerprint().slice(0, 16)}.tar`);
  if (existsSync(file)) return file;
  const database = await openDatabase({ memory: true });
  try {
    await migrateDatabase(database);
    const dump = await database.pglite!.dumpDataDir("none");
    mkdirSync(CACHE_DIR, { recursive: true });
    // Whole or not at all: two runs at once each rename a complete copy.
    const partial = `${file}.${process.pid}.tmp`;
    writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
    renameSync(partial, file);
    // Templates of an older schema go, unless one may still be in use by a run that started within the hour.
    for (const name of readdirSync(CACHE_DIR)) {
      const other = path.join(CACHE_DIR, name);
      if (other !== file && name.startsWith("pglite-template-") && statSync(other).mtimeMs < Date.now() - 3_600_000)
        rmSync(other, { force: true });
    }
  } finally {
    await database.close();
  }
  return file;
}
