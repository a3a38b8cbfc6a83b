// `npm run db:template`: writes src/server/db/template/pglite.tar.br, an empty embedded database made by this
// release's migrations and functions, and pglite.json (the PGlite version that made it, the last migration in it).
// A new DATA_DIR starts from it instead of running initdb (src/server/db/pglite-options.ts, ADR 0037). Run it again
// after upgrading PGlite (the copy is ignored by any other version: tests/api/db-template.test.ts fails until then),
// or whenever the migrations made since the last one slow a first start down.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants } from "node:zlib";
import { openDatabase } from "../src/server/db/client.ts";
import { MIGRATIONS_DIR, migrateDatabase } from "../src/server/db/migrate.ts";
import {
  pgliteVersion,
  TEMPLATE_DIR,
  TEMPLATE_FILE,
  TEMPLATE_META,
  type TemplateMeta,
} from "../src/server/db/pglite-options.ts";
import type { PgliteLike } from "../src/server/db/pglite-remote.ts";

const database = await openDatabase({ memory: true, worker: false });
await migrateDatabase(database);
const dump = await (database.pglite as PgliteLike).dumpDataDir("none");
await database.close();
const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as {
  entries: { tag: string }[];
};
const meta: TemplateMeta = { pglite: pgliteVersion(), lastMigration: journal.entries.at(-1)!.tag };
mkdirSync(TEMPLATE_DIR, { recursive: true });
const tar = Buffer.from(await dump.arrayBuffer());
// Quality 11 with a 16 MB window: ~1.7 MB, a minute or two to write, once per release that runs this.
const compressed = brotliCompressSync(tar, {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 24,
    [constants.BROTLI_PARAM_SIZE_HINT]: tar.length,
  },
});
writeFileSync(TEMPLATE_FILE, compressed);
writeFileSync(TEMPLATE_META, `${JSON.stringify(meta, null, 2)}\n`);
console.log(
  `[db:template] ${path.relative(process.cwd(), TEMPLATE_FILE)}: ${(compressed.length / 1e6).toFixed(1)} MB, PGlite ${meta.pglite}, up to ${meta.lastMigration}`,
);
