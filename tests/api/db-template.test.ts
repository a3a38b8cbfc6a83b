import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it, vi } from "vitest";
import { rawSql } from "../../src/server/db/backup.ts";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { MIGRATIONS_DIR, migrateDatabase, openServerDatabase } from "../../src/server/db/migrate.ts";
import { pgliteVersion, TEMPLATE_META, templateFor } from "../../src/server/db/pglite-options.ts";

vi.setConfig({ testTimeout: 240_000 });

/*
 * Issue 23 (first start ≤ 10 s), ADR 0037: a new DATA_DIR starts from the committed template instead of initdb.
 * The template must be this PGlite's (else it is ignored and a first start is ~4 s slower: run `npm run db:template`)
 * and must be exactly what the migrations make: same tables, columns, indexes, constraints and functions.
 */
const onPglite = !inject("testDatabaseUrl");
const dirs: string[] = [];
const databases: Database[] = [];
afterAll(async () => {
  for (const d of databases) await d.close();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The schema as rows: every column, index, constraint, function, trigger and view of the public schema. */
async function schemaOf(database: Database): Promise<string[]> {
  const sql = rawSql(database);
  const rows = await sql.query<{ line: string }>(`
    select 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable || ' ' ||
           coalesce(column_default, '') as line
      from information_schema.columns where table_schema = 'public'
    union all select 'index ' || indexname || ' ' || indexdef from pg_indexes where schemaname = 'public'
    union all select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
    union all select 'function ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid))
      from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
    union all select 'trigger ' || tgrelid::regclass || ' ' || tgname from pg_trigger where not tgisinternal
    union all select 'view ' || viewname || ' ' || md5(definition) from pg_views where schemaname = 'public'
    union all select 'migration ' || count(*) from drizzle.__drizzle_migrations`);
  return rows.map((r) => r.line).sort();
}

describe.runIf(onPglite)("the embedded database's template", () => {
  it("is this PGlite's: a new DATA_DIR would otherwise run initdb (npm run db:template makes it again)", () => {
    const meta = JSON.parse(readFileSync(TEMPLATE_META, "utf8")) as { pglite: string };
    expect(meta.pglite).toBe(pgliteVersion());
    const dir = mkdtempSync(path.join(tmpdir(), "fidele-template-"));
    dirs.push(dir);
    expect(templateFor(dir)).toBeInstanceOf(Blob);
  });

  it("a new DATA_DIR starts from it, migrated to head, with exactly the schema the migrations make", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fidele-template-"));
    dirs.push(dataDir);
    const fromTemplate = await openServerDatabase({ DATA_DIR: dataDir }, () => {});
    databases.push(fromTemplate);
    const fromMigrations = await openDatabase({ memory: true });
    databases.push(fromMigrations);
    await migrateDatabase(fromMigrations);
    const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8"));
    const schema = await schemaOf(fromTemplate);
    expect(schema).toContain(`migration ${journal.entries.length}`);
    expect(schema).toEqual(await schemaOf(fromMigrations));
    // It did come from the template (initdb would have given it a cluster identifier of its own).
    const template = await openDatabase({ memory: true, from: templateFor(mkdtempSync(path.join(tmpdir(), "t-")))! });
    databases.push(template);
    const identifier = (d: Database) =>
      rawSql(d).query<{ id: string }>("select system_identifier::text as id from pg_control_system()");
    expect(await identifier(fromTemplate)).toEqual(await identifier(template));
    expect(await identifier(fromTemplate)).not.toEqual(await identifier(fromMigrations));
  });

  it("a backup or a restore opens a new directory as it is: empty, not migrated", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fidele-template-"));
    dirs.push(dataDir);
    const plain = await openDatabase({ dataDir });
    databases.push(plain);
    const tables = await rawSql(plain).query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema = 'public'",
    );
    expect(tables[0]!.n).toBe(0);
  });
});
