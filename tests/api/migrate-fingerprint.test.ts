import { sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import type { Database } from "../../src/server/db/client.ts";
import { openDatabase } from "../../src/server/db/client.ts";
import { migrateDatabase, schemaFingerprint } from "../../src/server/db/migrate.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { openTestDatabase } from "../setup/test-db.ts";

/**
 * A start skips the migrations and the database functions when the database records that it has exactly these
 * (ADR 0037), and applies them when it records anything else. On a database of this file's own (a function is
 * dropped on purpose): an in-memory PGlite from the template, or a scratch PostgreSQL database.
 */
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function ownDatabase(): Promise<Database> {
  const url = inject("testDatabaseUrl");
  if (!url) {
    const database = await openTestDatabase({ fresh: true });
    cleanups.push(() => database.close());
    return database;
  }
  const scratch = await createScratchDatabase(url, "fingerprint");
  cleanups.push(scratch.drop);
  const database = await openDatabase({ url: scratch.url, poolSize: 2 });
  cleanups.push(() => database.close());
  return database;
}

const rows = async <T>(database: Database, query: ReturnType<typeof sql>) =>
  ((await database.db.execute(query)) as unknown as { rows: T[] }).rows;
const recorded = async (database: Database) =>
  (
    await rows<{ comment: string | null }>(
      database,
      sql`select obj_description(oid, 'pg_namespace') as comment from pg_namespace where nspname = 'drizzle'`,
    )
  )[0]?.comment;
const hasFunction = async (database: Database) =>
  (
    await rows<{ n: number }>(database, sql`select count(*)::int as n from pg_proc where proname = 'fidele_card_text'`)
  )[0]?.n === 1;
const dropFunction = async (database: Database) => {
  const [fn] = await rows<{ signature: string }>(
    database,
    sql`select oid::regprocedure::text as signature from pg_proc where proname = 'fidele_card_text'`,
  );
  await database.db.execute(sql.raw(`drop function ${fn!.signature}`));
};

describe("migrations fingerprint", () => {
  it("a migrated database records what it has; the same fingerprint skips everything, another one applies everything", async () => {
    const database = await ownDatabase();
    expect(await recorded(database)).toBe(`fidele ${schemaFingerprint()}`);

    // Same fingerprint: nothing runs (the dropped function stays dropped — a start does not touch the database).
    await dropFunction(database);
    await migrateDatabase(database);
    expect(await hasFunction(database)).toBe(false);

    // Another fingerprint (an older release's, or none): the migrations and the functions are applied again.
    await database.db.execute(sql.raw("comment on schema drizzle is 'fidele older'"));
    await migrateDatabase(database);
    expect(await hasFunction(database)).toBe(true);
    expect(await recorded(database)).toBe(`fidele ${schemaFingerprint()}`);

    await database.db.execute(sql.raw("comment on schema drizzle is null"));
    await dropFunction(database);
    await migrateDatabase(database);
    expect(await hasFunction(database)).toBe(true);
    expect(await recorded(database)).toBe(`fidele ${schemaFingerprint()}`);
  });
});
