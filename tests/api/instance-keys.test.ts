import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, describe, expect, inject, it } from "vitest";
import { type Database, openDatabase } from "../../src/server/db/client.ts";
import { parseEnv } from "../../src/server/env.ts";
import { loadVapidKeys } from "../../src/server/modules/messages/channels/push.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { openTestDatabase } from "../setup/test-db.ts";

/**
 * What a process generates once lives in the database (ADR 0038): every process of an instance gets the same
 * VAPID pair, however many start together; a pair kept in DATA_DIR/vapid.json by an older release is carried
 * over; the environment's pair wins. SECRET is required with DATABASE_URL.
 */
const url = inject("testDatabaseUrl");
const opened: Database[] = [];
const drops: (() => Promise<void>)[] = [];
afterAll(async () => {
  await Promise.all(opened.map((d) => d.close()));
  for (const drop of drops) await drop();
});

/** A database with no instance key yet (a scratch one on PostgreSQL, where the test database is shared). */
async function freshDatabase(): Promise<Database> {
  if (url) {
    const scratch = await createScratchDatabase(url, "keys");
    drops.push(scratch.drop);
    const database = await openDatabase({ url: scratch.url, poolSize: 10 });
    opened.unshift(database);
    return database;
  }
  const database = await openTestDatabase({ fresh: true });
  opened.push(database);
  return database;
}

const envOf = async (extra: Record<string, string> = {}) =>
  parseEnv({
    NODE_ENV: "test",
    SECRET: "s".repeat(40),
    DATA_DIR: await mkdtemp(path.join(tmpdir(), "fidele-keys-")),
    ...extra,
  });

describe("the VAPID key pair is the instance's, kept in the database", () => {
  it("twenty processes asking at once get one pair, generated once and read back by later ones", async () => {
    const database = await freshDatabase();
    const env = await envOf();
    const pairs = await Promise.all(Array.from({ length: 20 }, () => loadVapidKeys(database.db, env)));
    expect(new Set(pairs.map((p) => `${p.publicKey}/${p.privateKey}`)).size).toBe(1);
    const rows = (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from instance_keys`)).rows;
    expect(rows[0]?.n).toBe(1);
    // Another process, another DATA_DIR: the same pair.
    expect(await loadVapidKeys(database.db, await envOf())).toEqual(pairs[0]);
    // A usable pair: web-push signs with it.
    const headers = webpush.getVapidHeaders(
      "https://push.example",
      "mailto:a@b.c",
      pairs[0]!.publicKey,
      pairs[0]!.privateKey,
      "aes128gcm",
    );
    expect(headers.Authorization).toContain(pairs[0]!.publicKey);
  });

  it("a pair an older release kept in DATA_DIR/vapid.json is carried into the database (its devices keep working)", async () => {
    const database = await freshDatabase();
    const legacy = webpush.generateVAPIDKeys();
    const env = await envOf();
    await writeFile(path.join(env.DATA_DIR, "vapid.json"), JSON.stringify(legacy));
    const keys = await loadVapidKeys(database.db, env);
    expect({ publicKey: keys.publicKey, privateKey: keys.privateKey }).toEqual(legacy);
    // Every other process reads it from the database now.
    expect((await loadVapidKeys(database.db, await envOf())).publicKey).toBe(legacy.publicKey);
  });

  it("VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY/VAPID_SUBJECT override the database's pair", async () => {
    const database = await freshDatabase();
    const pair = webpush.generateVAPIDKeys();
    const env = await envOf({
      VAPID_PUBLIC_KEY: pair.publicKey,
      VAPID_PRIVATE_KEY: pair.privateKey,
      VAPID_SUBJECT: "mailto:ops@example.fr",
    });
    expect(await loadVapidKeys(database.db, env)).toEqual({ ...pair, subject: "mailto:ops@example.fr" });
    const rows = (await database.db.execute<{ n: number }>(sql`select count(*)::int as n from instance_keys`)).rows;
    expect(rows[0]?.n).toBe(0);
  });
});

describe("settings several processes must share", () => {
  it("SECRET is required with DATABASE_URL (a generated one would differ per process)", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgres://u@127.0.0.1:5432/x", DATA_DIR: tmpdir() })).toThrow(
      /SECRET: SECRET is required with DATABASE_URL/,
    );
    expect(parseEnv({ DATABASE_URL: "postgres://u@127.0.0.1:5432/x", SECRET: "k".repeat(32) }).SECRET).toBe(
      "k".repeat(32),
    );
  });

  it("one VAPID key without the other is refused at start", () => {
    expect(() => parseEnv({ SECRET: "k".repeat(32), VAPID_PUBLIC_KEY: "abc" })).toThrow(
      /VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together/,
    );
  });
});
