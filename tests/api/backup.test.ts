import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it, vi } from "vitest";
import {
  isBackup,
  listTables,
  RestoreRefused,
  rawSql,
  restoreBackup,
  tableChecksums,
  writeBackup,
} from "../../src/server/db/backup.ts";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { writeNightlyBackup } from "../../src/server/db/nightly-backup.ts";
import { parseEnv } from "../../src/server/env.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { ROOT } from "../setup/api.ts";
import { LONG_TEST } from "../setup/timing.ts";

// Each restore builds a schema from scratch (the migrations, as a new database does): seconds on a loaded machine.
vi.setConfig({ testTimeout: LONG_TEST });

/*
 * Issue 23 item 4 (backup, restore, move) and item 6 (upgrade without fear), docs/decisions/0039.
 * The source of every round trip is the upgrade fixture: a database made by an older release's migrations with
 * rows in every table, restored and migrated to head — so the same file proves the upgrade and feeds the backups.
 */
const FIXTURE_DIR = path.join(ROOT, "tests/fixtures/upgrade");
const fixtures = readdirSync(FIXTURE_DIR).filter((f) => f.endsWith(".sql.gz"));
const testDatabaseUrl = inject("testDatabaseUrl");

const readFixture = (name: string) => gunzipSync(readFileSync(path.join(FIXTURE_DIR, name))).toString("utf8");
/** The rows per table the fixture's file says it holds (its `-- schema.table: N rows` lines). */
const fixtureCounts = (text: string) =>
  Object.fromEntries([...text.matchAll(/^-- ([a-z_]+\.[a-z_]+): (\d+) rows$/gm)].map((m) => [m[1], Number(m[2])]));

const emptyPglite = () => openDatabase({ memory: true });

/** An empty database of its own on the test PostgreSQL server, dropped at the end of the file. */
const dropLater: string[] = [];
async function emptyPostgres(): Promise<Database & { url: string }> {
  const name = `${new URL(testDatabaseUrl).pathname.slice(1)}_bk_${randomBytes(3).toString("hex")}`;
  const admin = new URL(testDatabaseUrl);
  admin.pathname = "/postgres";
  const client = new pg.Client({ connectionString: admin.toString() });
  await client.connect();
  await client.query(`create database "${name}"`);
  await client.end();
  dropLater.push(name);
  const url = new URL(testDatabaseUrl);
  url.pathname = `/${name}`;
  return Object.assign(await openDatabase({ url: url.toString(), poolSize: 2 }), { url: url.toString() });
}

async function backupText(database: Database) {
  const parts: string[] = [];
  await writeBackup(database, (chunk) => void parts.push(chunk));
  return parts.join("");
}

const opened: Database[] = [];
const track = <T extends Database>(d: T) => (opened.push(d), d);
let source: Database;
let sourceSums: Awaited<ReturnType<typeof tableChecksums>>;

beforeAll(async () => {
  expect(fixtures.length).toBeGreaterThan(0);
  source = track(await emptyPglite());
  await restoreBackup(source, readFixture(fixtures.at(-1) as string));
  sourceSums = await tableChecksums(source);
});

afterAll(async () => {
  for (const d of opened) await d.close().catch(() => {});
  if (testDatabaseUrl && dropLater.length) {
    const admin = new URL(testDatabaseUrl);
    admin.pathname = "/postgres";
    const client = new pg.Client({ connectionString: admin.toString() });
    await client.connect();
    for (const name of dropLater) await client.query(`drop database if exists "${name}" with (force)`);
    await client.end();
  }
});

describe("upgrade: a database made by an older release migrates to head without losing a row", () => {
  for (const fixture of fixtures) {
    it(`${fixture}: every table of the old schema keeps every row`, async () => {
      const text = readFixture(fixture);
      const before = fixtureCounts(text);
      // The fixture holds rows in every one of its tables: an upgrade test on empty tables proves nothing.
      const oldTables = [...text.matchAll(/^CREATE TABLE (?:IF NOT EXISTS )?"([a-z_]+)"/gm)].map(
        (m) => `public.${m[1]}`,
      );
      expect(oldTables.length).toBeGreaterThan(30);
      for (const t of oldTables) expect(before[t], `${t} has rows in the fixture`).toBeGreaterThan(0);

      // On the PostgreSQL pass, the upgrade runs on the server; else on the embedded database.
      const database = track(testDatabaseUrl ? await emptyPostgres() : await emptyPglite());
      await restoreBackup(database, text); // restores at the old level, then applies every later migration
      const after = await tableChecksums(database);
      for (const [table, rows] of Object.entries(before)) {
        if (table.startsWith("drizzle.")) continue; // the migrations' own record grows with the upgrade
        expect(after[table]?.rows, `${table} after the upgrade`).toBe(rows);
      }
      const applied = await rawSql(database).query<{ n: number }>(
        "select count(*)::int as n from drizzle.__drizzle_migrations",
      );
      const journal = JSON.parse(readFileSync(path.join(ROOT, "src/server/db/migrations/meta/_journal.json"), "utf8"));
      expect(applied[0]?.n).toBe(journal.entries.length);
    });
  }
});

describe("backup → restore: every table's checksum equal", () => {
  it.skipIf(testDatabaseUrl)("embedded → embedded", async () => {
    const text = await backupText(source);
    expect(isBackup(text)).toBe(true);
    const target = track(await emptyPglite());
    await restoreBackup(target, text);
    expect(await tableChecksums(target)).toEqual(sourceSums);
    // The ledger's trigger was off while it loaded: balances were not applied a second time.
    const balances = (d: Database) =>
      rawSql(d).query<{ id: string; balance: number }>("select id, balance from cards order by id");
    expect(await balances(target)).toEqual(await balances(source));
  });

  it.runIf(testDatabaseUrl)("embedded → PostgreSQL → embedded", async () => {
    const server = track(await emptyPostgres());
    await restoreBackup(server, await backupText(source));
    expect(await tableChecksums(server)).toEqual(sourceSums);

    const back = track(await emptyPglite());
    await restoreBackup(back, await backupText(server));
    expect(await tableChecksums(back)).toEqual(sourceSums);
  });

  it.runIf(testDatabaseUrl && spawnSync("psql", ["--version"]).status === 0)(
    "psql reads the file into an empty PostgreSQL database",
    async () => {
      const server = track(await emptyPostgres());
      const file = path.join(mkdtempSync(path.join(tmpdir(), "fidele-bk-")), "backup.sql");
      writeFileSync(file, await backupText(source));
      execFileSync("psql", ["-v", "ON_ERROR_STOP=1", "-q", "-d", server.url, "-f", file], { stdio: "pipe" });
      expect(await tableChecksums(server)).toEqual(sourceSums);
    },
  );

  it("a restore refuses a database that is not empty, and a file that is not a backup; an empty database has no backup", async () => {
    const text = await backupText(source);
    await expect(restoreBackup(source, text)).rejects.toBeInstanceOf(RestoreRefused);
    const target = track(await emptyPglite());
    await expect(restoreBackup(target, "select 1;")).rejects.toBeInstanceOf(RestoreRefused);
    expect(await listTables(rawSql(target))).toEqual([]);
    // A database without Fidèle's schema has nothing to back up (and a backup never migrates what it reads).
    await expect(backupText(target)).rejects.toBeInstanceOf(RestoreRefused);
  });
});

// The embedded-only tests run once, in the PGlite pass.
describe.skipIf(testDatabaseUrl)("nightly backups of the embedded database", () => {
  it("writes DATA_DIR/backups/*.sql.gz that restores, and keeps the newest BACKUP_KEEP", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "fidele-nightly-"));
    try {
      const env = parseEnv({ SECRET: "s".repeat(32), DATA_DIR: dataDir, BACKUP_KEEP: "2" });
      const deps = { database: source, env, logger: createLogger("warn") };
      for (const day of ["2026-11-20", "2026-11-21", "2026-11-22"])
        await writeNightlyBackup(deps, new Date(`${day}T02:30:00Z`));
      const files = readdirSync(path.join(dataDir, "backups")).sort();
      expect(files).toEqual(["fidele-2026-11-21T02-30-00Z.sql.gz", "fidele-2026-11-22T02-30-00Z.sql.gz"]);

      const target = track(await emptyPglite());
      await restoreBackup(
        target,
        gunzipSync(readFileSync(path.join(dataDir, "backups", files[1] as string))).toString(),
      );
      expect(await tableChecksums(target)).toEqual(sourceSums);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(testDatabaseUrl)("the commands", () => {
  it("npm run backup and npm run restore, embedded to embedded, from the shell", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "fidele-cli-"));
    try {
      const tsx = path.join(ROOT, "node_modules/tsx/dist/cli.mjs");
      const cli = path.join(ROOT, "src/server/db/backup-cli.ts");
      const file = path.join(dir, "b.sql.gz");
      // A source data directory: the fixture restored into it by the restore command itself.
      const fixtureFile = path.join(dir, "fixture.sql");
      writeFileSync(fixtureFile, readFixture(fixtures.at(-1) as string));
      const run = (dataDir: string, ...args: string[]) =>
        execFileSync(process.execPath, [tsx, cli, ...args], {
          cwd: dir,
          env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", SECRET: "c".repeat(32), LOG_LEVEL: "warn" },
          stdio: "pipe",
        });
      run(path.join(dir, "a"), "restore", fixtureFile);
      run(path.join(dir, "a"), "backup", file);
      expect(existsSync(file)).toBe(true);
      run(path.join(dir, "b"), "restore", file);
      const restored = track(await openDatabase({ dataDir: path.join(dir, "b") }));
      expect(await tableChecksums(restored)).toEqual(sourceSums);
      await restored.close();
      opened.pop();
      // A second restore into the same (now full) directory is refused, with exit code 2.
      const again = spawnSync(process.execPath, [tsx, cli, "restore", file], {
        cwd: dir,
        env: { ...process.env, DATA_DIR: path.join(dir, "b"), DATABASE_URL: "", SECRET: "c".repeat(32) },
      });
      expect(again.status).toBe(2);
      expect(again.stderr.toString()).toContain("n'est pas vide");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
