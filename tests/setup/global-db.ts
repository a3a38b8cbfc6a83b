import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { openDatabase } from "../../src/server/db/client.ts";
import { migrateDatabase } from "../../src/server/db/migrate.ts";

/** Once per run: a migrated PGlite template, and migrations on TEST_DATABASE_URL when set. */
export default async function setup(project: TestProject) {
  const url = process.env.TEST_DATABASE_URL ?? "";
  if (url) {
    const database = await openDatabase({ url });
    await migrateDatabase(database);
    await database.close();
  }
  const database = await openDatabase({ memory: true });
  await migrateDatabase(database);
  const dump = await database.pglite!.dumpDataDir("none");
  const dir = await mkdtemp(path.join(tmpdir(), "fidele-template-"));
  const file = path.join(dir, "template.tar");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  project.provide("pgliteTemplate", file);
  project.provide("testDatabaseUrl", url);
}
