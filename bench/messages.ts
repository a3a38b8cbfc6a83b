import { type ChildProcess, spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import webpush from "web-push";
import { type Database, openDatabase } from "../src/server/db/client.ts";
import { migrateDatabase } from "../src/server/db/migrate.ts";
import { createMessage } from "../src/server/modules/messages/compose.service.ts";
import { parseEnv } from "../src/server/env.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { setPushAgent, type VapidKeys } from "../src/server/modules/messages/push.ts";
import { PUSH_CONCURRENCY } from "../src/server/modules/messages/push-driver.ts";
import { finishIfDone, processMessageBatch } from "../src/server/modules/messages/sending.service.ts";
import { createDeps } from "../src/server/server.ts";
import { type PushService, startPushService } from "../tests/fixtures/push-service.ts";
import { ROOT, table, writeResult } from "./lib.ts";
import { withFreshDatabase } from "./load.ts";
import { seedMessagesWorld } from "../tests/fixtures/messages-world.ts";

/**
 * Issue 14: a message to 10,000 customers, each with push on, delivered to a local
 * HTTPS push service that decrypts every payload. Per database: the time to deliver
 * all (in-app + push); on PostgreSQL also with two sending processes at once (each
 * recipient exactly once) and with a process killed (SIGKILL) mid-send and a second
 * one resuming (nobody twice, nobody missed). BENCH_MESSAGES_RECIPIENTS changes the size.
 */
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/fidele_bench_messages";
const N = Number(process.env.BENCH_MESSAGES_RECIPIENTS ?? 10_000);
/** The resuming process claims again what the killed one held after this (the service's default is 120 s). */
const LEASE_SECONDS = 10;

type Row = {
  database: "postgresql" | "pglite";
  scenario: string;
  recipients: number;
  freezeMs: number;
  deliverMs: number;
  pushesPerSecond: number;
  inapp: number;
  pushed: number;
  duplicates: number;
  missing: number;
};

function countReceived(ps: PushService, pushIds: string[], since: number) {
  const counts = new Map<string, number>();
  for (const r of ps.received)
    if (r.at >= since && (r.payload as { id?: string }).id) counts.set(r.deviceId, (counts.get(r.deviceId) ?? 0) + 1);
  let duplicates = 0;
  let missing = 0;
  let pushed = 0;
  for (const id of pushIds) {
    const c = counts.get(id) ?? 0;
    if (c === 0) missing++;
    else pushed++;
    if (c > 1) duplicates += c - 1;
  }
  return { duplicates, missing, pushed };
}

async function inappDelivered(database: Database, messageId: string) {
  const [row] = (
    await database.db.execute<{ n: number }>(sql`
      select count(*)::int as n from message_deliveries where message_id = ${messageId} and channel = 'inapp' and status = 'delivered'`)
  ).rows;
  return Number(row?.n ?? 0);
}

function worker(env: Record<string, string>): { child: ChildProcess; done: Promise<number> } {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/messages-worker.ts")], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return { child, done: new Promise((resolve) => child.once("exit", (code) => resolve(code ?? 1))) };
}

async function compose(database: Database, world: { shopId: string; ownerId: string }) {
  const started = Date.now();
  const message = await createMessage(
    // No job engine here: the bench's own workers deliver.
    { db: database.db, logger: createLogger("warn"), jobs: { send: async () => null } as never },
    { kind: "shop", access: { shopId: world.shopId, userId: world.ownerId, role: "owner", level: "owner" } },
    { title: "Soldes d'hiver", body: "-20 % sur tout le magasin ce week-end.", push: true, sms: false, segment: { kind: "all" } },
  );
  return { id: message.id, freezeMs: Date.now() - started, started };
}

async function benchPostgres(adminUrl: string, ps: PushService, vapid: VapidKeys, caFile: string): Promise<Row[]> {
  return withFreshDatabase(adminUrl, "fidele_bench_messages", async (url) => {
    const database = await openDatabase({ url, poolSize: 10 });
    // The database is dropped (with force) at the end: idle connections are told so.
    database.pool?.on("error", () => {});
    await migrateDatabase(database);
    const rows: Row[] = [];
    try {
      for (const scenario of ["1 process", "2 processes", "killed, resumed"] as const) {
        console.log(`postgresql, ${scenario}: seeding ${N} customers…`);
        const world = await seedMessagesWorld(database.db, N, ps);
        const { id, freezeMs, started } = await compose(database, world);
        const env = {
          BENCH_DB: url,
          BENCH_MESSAGE: id,
          BENCH_CA: caFile,
          BENCH_VAPID: JSON.stringify(vapid),
          BENCH_LEASE: String(LEASE_SECONDS),
        };
        if (scenario === "killed, resumed") {
          const first = worker(env);
          // Killed once a third of the pushes are out.
          while (countReceived(ps, world.pushIds, started).pushed < N / 3)
            await new Promise((resolve) => setTimeout(resolve, 50));
          first.child.kill("SIGKILL");
          await first.done;
          console.log(`  killed after ${countReceived(ps, world.pushIds, started).pushed} pushes`);
          const second = worker(env);
          await second.done;
        } else {
          const workers = Array.from({ length: scenario === "2 processes" ? 2 : 1 }, () => worker(env));
          await Promise.all(workers.map((w) => w.done));
        }
        const deliverMs = Date.now() - started;
        const got = countReceived(ps, world.pushIds, started);
        rows.push({
          database: "postgresql",
          scenario,
          recipients: N,
          freezeMs,
          deliverMs,
          pushesPerSecond: Math.round((got.pushed / deliverMs) * 1000),
          inapp: await inappDelivered(database, id),
          ...got,
        });
      }
    } finally {
      await database.close();
    }
    return rows;
  });
}

async function benchPglite(ps: PushService, vapid: VapidKeys): Promise<Row> {
  const database = await openDatabase({ memory: true });
  await migrateDatabase(database);
  try {
    const world = await seedMessagesWorld(database.db, N, ps);
    const { id, freezeMs, started } = await compose(database, world);
    const deps = await createDeps(
      parseEnv({
        SECRET: "bench-secret-bench-secret-bench-secret",
        VAPID_PUBLIC_KEY: vapid.publicKey,
        VAPID_PRIVATE_KEY: vapid.privateKey,
        VAPID_SUBJECT: vapid.subject,
      }),
      { database, logger: createLogger("warn") },
    );
    for (;;) {
      const r = await processMessageBatch(deps, id, { limit: 200 });
      if (r.remaining === 0) break;
    }
    await finishIfDone(database.db, id);
    const deliverMs = Date.now() - started;
    const got = countReceived(ps, world.pushIds, started);
    return {
      database: "pglite",
      scenario: "1 process",
      recipients: N,
      freezeMs,
      deliverMs,
      pushesPerSecond: Math.round((got.pushed / deliverMs) * 1000),
      inapp: await inappDelivered(database, id),
      ...got,
    };
  } finally {
    await database.close();
  }
}

export async function runMessages(): Promise<boolean> {
  const ps = await startPushService();
  setPushAgent(ps.agent);
  const caFile = path.join(tmpdir(), `fidele-bench-push-ca-${process.pid}.pem`);
  writeFileSync(caFile, ps.cert);
  const vapid = { ...webpush.generateVAPIDKeys(), subject: "mailto:bench@fidele.local" };
  const rows: Row[] = [];
  try {
    try {
      rows.push(...(await benchPostgres(process.env.BENCH_MESSAGES_DATABASE_URL ?? DEFAULT_URL, ps, vapid, caFile)));
    } catch (error) {
      console.error("PostgreSQL messages benchmark failed:", error);
      return false;
    }
    rows.push(await benchPglite(ps, vapid));
  } finally {
    setPushAgent(undefined);
    await ps.close();
  }
  console.log(
    table(
      ["database", "scenario", "recipients", "freeze ms", "deliver s", "push/s", "in-app", "pushed", "twice", "missed"],
      rows.map((r) => [
        r.database,
        r.scenario,
        r.recipients,
        r.freezeMs,
        (r.deliverMs / 1000).toFixed(1),
        r.pushesPerSecond,
        r.inapp,
        r.pushed,
        r.duplicates,
        r.missing,
      ]),
    ),
  );
  const file = writeResult("messages", { recipients: N, leaseSeconds: LEASE_SECONDS, rows });
  console.log(`→ ${path.relative(ROOT, file)}`);
  // A killed process may have sent the pushes it had in flight (at most one claim) without marking them: those
  // are sent again, under the same RFC 8030 topic and notification tag, so the phone shows the message once.
  return rows.every(
    (r) =>
      r.inapp === N &&
      r.missing === 0 &&
      (r.scenario === "killed, resumed" ? r.duplicates <= PUSH_CONCURRENCY * 2 : r.duplicates === 0),
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runMessages().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
