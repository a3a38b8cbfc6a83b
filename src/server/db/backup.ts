import { readFileSync } from "node:fs";
import path from "node:path";
import type { Database } from "./client.ts";
import { functionSources } from "./functions.ts";
import { MIGRATIONS_DIR, migrateDatabase } from "./migrate.ts";

/*
 * Backups as one SQL file that psql reads into an empty PostgreSQL database, and that `npm run restore` reads into
 * an empty database of either kind (docs/decisions/0039). The file holds, in one transaction:
 *   1. the schema, as the committed migrations up to the backup's level (the schema's one source) and the database
 *      functions, and Drizzle's record of the migrations applied;
 *   2. every row of every table of the `public` and `drizzle` schemas, table after table in foreign-key order, as
 *      `INSERT … SELECT … FROM json_populate_recordset(…)` (so no type is re-parsed on this side), with the
 *      tables' own triggers off while they load (the ledger's trigger would apply every entry to its card twice);
 *   3. every sequence where it was.
 * pg-boss's schema is left out: its jobs are work in flight, and its schedules are made again at every start.
 * Restoring runs the migrations that came after the backup, so an older backup lands on the current schema.
 */

const BACKUP_FORMAT = "fidele-sql 1";
/** Rows per INSERT: big enough to load fast, small enough that one statement stays a few megabytes. */
const ROWS_PER_INSERT = 500;
const SCHEMAS = ["public", "drizzle"] as const;

/** Raw SQL on either database: rows of a query, or a whole script. */
type RawSql = {
  query: <T>(text: string) => Promise<T[]>;
  exec: (script: string) => Promise<void>;
};

export function rawSql(database: Database): RawSql {
  if (database.kind === "pglite") {
    const pglite = database.pglite;
    if (!pglite) throw new Error("No PGlite handle");
    return {
      query: async <T>(text: string) => (await pglite.query<T>(text)).rows,
      exec: async (script) => {
        await pglite.exec(script);
      },
    };
  }
  const pool = database.pool;
  if (!pool) throw new Error("No pool");
  return {
    query: async <T>(text: string) => (await pool.query(text)).rows as T[],
    exec: async (script) => {
      // The simple query protocol runs a script of many statements (no parameters) in one round trip.
      await pool.query(script);
    },
  };
}

const ident = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (schema: string, name: string) => `${ident(schema)}.${ident(name)}`;
const literal = (s: string) => `'${s.replaceAll("'", "''")}'`;

type Journal = { entries: { idx: number; tag: string; when: number }[] };

function readJournal(): Journal["entries"] {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_DIR, "meta/_journal.json"), "utf8")) as Journal;
  return journal.entries;
}

type TableInfo = { schema: string; name: string; columns: string[] };

/** The tables to keep, parents before children (foreign keys), each with its insertable columns. */
export async function listTables(sql: RawSql): Promise<TableInfo[]> {
  const schemas = SCHEMAS.map(literal).join(", ");
  const tables = await sql.query<{ schema: string; name: string; columns: string[] | string }>(`
    select n.nspname as schema, c.relname as name,
      array(select a.attname::text from pg_attribute a
            where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
            order by a.attnum) as columns
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname in (${schemas}) and not c.relispartition
    order by n.nspname, c.relname`);
  const edges = await sql.query<{ child: string; parent: string }>(`
    select cn.nspname || '.' || c.relname as child, pn.nspname || '.' || p.relname as parent
    from pg_constraint k
    join pg_class c on c.oid = k.conrelid join pg_namespace cn on cn.oid = c.relnamespace
    join pg_class p on p.oid = k.confrelid join pg_namespace pn on pn.oid = p.relnamespace
    where k.contype = 'f' and cn.nspname in (${schemas}) and k.conrelid <> k.confrelid`);
  const key = (t: { schema: string; name: string }) => `${t.schema}.${t.name}`;
  const parents = new Map<string, Set<string>>();
  for (const e of edges) {
    if (!parents.has(e.child)) parents.set(e.child, new Set());
    parents.get(e.child)?.add(e.parent);
  }
  // Depth-first: a table comes after every table it points at (cycles, if one ever appears, are broken
  // where they are met: its rows then rely on the deferred check below failing loudly, never on silence).
  const ordered: TableInfo[] = [];
  const state = new Map<string, "visiting" | "done">();
  const byKey = new Map(tables.map((t) => [key(t), t]));
  const visit = (k: string) => {
    if (state.get(k)) return;
    state.set(k, "visiting");
    for (const parent of parents.get(k) ?? []) if (byKey.has(parent)) visit(parent);
    state.set(k, "done");
    const t = byKey.get(k);
    if (t) ordered.push({ schema: t.schema, name: t.name, columns: pgArray(t.columns) });
  };
  for (const t of tables) visit(key(t));
  return ordered;
}

/** pg returns a text[] as an array; PGlite too, but a `name[]` can come back as its text form. */
function pgArray(value: string[] | string): string[] {
  if (Array.isArray(value)) return value;
  const inner = value.replace(/^\{|\}$/g, "");
  return inner ? inner.split(",").map((s) => s.replace(/^"|"$/g, "")) : [];
}

/** A dollar-quote tag that does not occur in the text it quotes. */
function dollarQuote(text: string): string {
  let tag = "$fidele$";
  for (let i = 0; text.includes(tag); i++) tag = `$fidele${i}$`;
  return `${tag}${text}${tag}`;
}

type BackupSummary = { tables: number; rows: number; migration: string };

/**
 * Runs `fn` on one connection inside one transaction: a repeatable-read snapshot on PostgreSQL (the app keeps
 * running beside it), PGlite's transaction on the embedded database (one connection: the app's statements wait).
 */
async function inSnapshot<T>(database: Database, fn: (sql: RawSql) => Promise<T>): Promise<T> {
  if (database.kind === "postgresql") {
    const pool = database.pool;
    if (!pool) throw new Error("No pool");
    const client = await pool.connect();
    try {
      await client.query("begin isolation level repeatable read read only");
      const result = await fn({
        query: async <R>(text: string) => (await client.query(text)).rows as R[],
        exec: async (script) => void (await client.query(script)),
      });
      await client.query("commit");
      return result;
    } catch (error) {
      await client.query("rollback").catch(() => {});
      throw error;
    } finally {
      client.release();
    }
  }
  const pglite = database.pglite;
  if (!pglite) throw new Error("No PGlite handle");
  return pglite.transaction((tx) =>
    fn({
      query: async <R>(text: string) => (await tx.query<R>(text)).rows,
      exec: async (s) => void (await tx.exec(s)),
    }),
  );
}

/** Writes a backup through `write` (called with pieces of the file, in order), from one snapshot. */
export function writeBackup(
  database: Database,
  write: (chunk: string) => void | Promise<void>,
  now = new Date(),
): Promise<BackupSummary> {
  return inSnapshot(database, (sql) => writeBackupWith(sql, database.kind, write, now));
}

async function writeBackupWith(
  sql: RawSql,
  kind: Database["kind"],
  write: (chunk: string) => void | Promise<void>,
  now: Date,
): Promise<BackupSummary> {
  const [schema] = await sql.query<{ present: boolean }>(
    `select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
  );
  if (!schema?.present)
    throw new RestoreRefused(
      "Rien à sauvegarder : cette base n'a pas de schéma Fidèle. / Nothing to back up: no Fidèle schema.",
    );
  const applied = await sql.query<{ hash: string; created_at: string | number }>(
    `select hash, created_at from drizzle.__drizzle_migrations order by created_at`,
  );
  const journal = readJournal();
  const lastApplied = Number(applied.at(-1)?.created_at ?? 0);
  const migrations = journal.filter((m) => m.when <= lastApplied);
  if (migrations.length !== applied.length)
    throw new Error(
      `This database has ${applied.length} migrations applied; this release knows ${migrations.length} of them up to ` +
        `that point. Back it up with the release that made it.`,
    );
  const level = migrations.at(-1)?.tag ?? "(none)";

  await write(
    [
      `-- Fidèle backup`,
      `-- format: ${BACKUP_FORMAT}`,
      `-- made: ${now.toISOString()} from ${kind === "pglite" ? "the embedded database" : "a PostgreSQL server"}`,
      `-- migration: ${level}`,
      `-- Restore into an empty database: npm run restore -- FILE  (either kind; later migrations are applied)`,
      `--   or on a PostgreSQL server: psql -v ON_ERROR_STOP=1 -d EMPTY_DATABASE -f FILE`,
      ``,
      `SET client_encoding = 'UTF8';`,
      `SET standard_conforming_strings = on;`,
      `SET check_function_bodies = off;`,
      `SET client_min_messages = warning;`,
      `BEGIN;`,
      ``,
    ].join("\n"),
  );

  // 1. The schema: the migrations as this release commits them (for 0002, 0004 and 0020 not quite the text their
  // hashes were taken from: ADR 0043 removed copies of function bodies, same schema), then the functions.
  for (const m of migrations) {
    const text = readFileSync(path.join(MIGRATIONS_DIR, `${m.tag}.sql`), "utf8");
    await write(`-- migration ${m.tag}\n${text.trimEnd()}\n;\n\n`);
  }
  for (const f of functionSources()) await write(`-- database functions: ${f.file}\n${f.sql.trimEnd()}\n;\n\n`);
  await write(
    `CREATE SCHEMA IF NOT EXISTS drizzle;\n` +
      `CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);\n\n`,
  );

  // 2. The rows, parents first; each table's own triggers off while it loads.
  const tables = await listTables(sql);
  let rows = 0;
  for (const table of tables) {
    const name = qualified(table.schema, table.name);
    const columns = table.columns.map(ident).join(", ");
    const count = Number((await sql.query<{ n: string | number }>(`select count(*) as n from ${name}`))[0]?.n ?? 0);
    if (count === 0) continue;
    await write(`-- ${table.schema}.${table.name}: ${count} rows\nALTER TABLE ${name} DISABLE TRIGGER USER;\n`);
    // Keyset on the row's place (ctid) inside one snapshot: each batch costs its rows, whatever the table's size.
    let after = "(0,0)";
    for (;;) {
      const [batch] = await sql.query<{ data: string | null; last: string | null; n: string | number }>(
        `with b as (select ctid as _ctid, ${columns} from ${name} where ctid > ${literal(after)}::tid
                    order by ctid limit ${ROWS_PER_INSERT})
         select json_agg(to_jsonb(b) - '_ctid')::text as data, (array_agg(_ctid order by _ctid desc))[1]::text as last,
                count(*) as n from b`,
      );
      if (!batch?.data || !batch.last || Number(batch.n) === 0) break;
      await write(
        `INSERT INTO ${name} (${columns}) OVERRIDING SYSTEM VALUE SELECT ${columns} FROM json_populate_recordset(NULL::${name}, ${dollarQuote(batch.data)});\n`,
      );
      after = batch.last;
      if (Number(batch.n) < ROWS_PER_INSERT) break;
    }
    await write(`ALTER TABLE ${name} ENABLE TRIGGER USER;\n\n`);
    rows += count;
  }

  // 3. Sequences where they were.
  const sequences = await sql.query<{ schema: string; name: string }>(`
    select n.nspname as schema, c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind = 'S' and n.nspname in (${SCHEMAS.map(literal).join(", ")}) order by 1, 2`);
  for (const s of sequences) {
    const name = qualified(s.schema, s.name);
    const [state] = await sql.query<{ last_value: string; is_called: boolean }>(
      `select last_value::text as last_value, is_called from ${name}`,
    );
    if (state) await write(`SELECT setval(${literal(name)}, ${state.last_value}, ${state.is_called});\n`);
  }
  await write(`\nCOMMIT;\n`);
  return { tables: tables.length, rows, migration: level };
}

/** The header line a backup file starts with; anything else is not one of ours. */
export function isBackup(text: string): boolean {
  return text.startsWith("-- Fidèle backup\n") && text.includes(`-- format: ${BACKUP_FORMAT}\n`);
}

export class RestoreRefused extends Error {}

/**
 * Fills an empty database from a backup, then applies the migrations that came after it. Refuses a database that
 * already has tables (a restore never merges into, nor overwrites, live data).
 */
export async function restoreBackup(database: Database, text: string): Promise<{ tables: number }> {
  if (!isBackup(text)) throw new RestoreRefused("Ce fichier n'est pas une sauvegarde Fidèle / not a Fidèle backup.");
  const sql = rawSql(database);
  const [existing] = await sql.query<{ n: string | number }>(
    `select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle')`,
  );
  if (Number(existing?.n ?? 0) > 0)
    throw new RestoreRefused(
      "La base de destination n'est pas vide : une restauration remplit une base neuve, elle n'écrase rien. " +
        "/ The target database is not empty: a restore fills a new database and never overwrites one.",
    );
  await sql.exec(text);
  await migrateDatabase(database);
  const tables = await listTables(sql);
  return { tables: tables.length };
}

/** Per table: its row count and a checksum of its rows (order-free), to prove two databases hold the same data. */
export function tableChecksums(database: Database): Promise<Record<string, { rows: number; md5: string }>> {
  return inSnapshot(database, async (sql) => {
    // Timestamps in one zone, so the same instant has the same text on both engines.
    await sql.exec("set local time zone 'UTC'");
    const result: Record<string, { rows: number; md5: string }> = {};
    for (const table of await listTables(sql)) {
      const name = qualified(table.schema, table.name);
      const columns = table.columns.map(ident).join(", ");
      // Text forms through JSON (the same on both engines) rather than each type's output function.
      const [row] = await sql.query<{ rows: string | number; md5: string | null }>(
        `select count(*) as rows, md5(coalesce(string_agg(h, '' order by h), '')) as md5
         from (select md5((select to_jsonb(r)::text from (select ${columns}) r)) as h from ${name}) t`,
      );
      result[`${table.schema}.${table.name}`] = { rows: Number(row?.rows ?? 0), md5: row?.md5 ?? "" };
    }
    return result;
  });
}

/** `fidele-2026-11-26T03-30-00Z.sql(.gz)`: names that sort by date. */
export function backupFileName(date: Date, gzip: boolean): string {
  return `fidele-${date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replaceAll(":", "-")}.sql${gzip ? ".gz" : ""}`;
}
