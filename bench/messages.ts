import type { ChildProcess } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import webpush from "web-push";
import { type Database, openDatabase } from "../src/server/db/client.ts";
import { createUser } from "../src/server/db/factories.ts";
import { migrateDatabase } from "../src/server/db/migrate.ts";
import { parseEnv } from "../src/server/env.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { pushDriver } from "../src/server/modules/messages/channels/push-driver.ts";
import { createDeps } from "../src/server/server.ts";
import { seedMessagesWorld } from "../tests/fixtures/messages-world.ts";
import { type PushService, startPushService } from "../tests/fixtures/push-service.ts";
import { ROOT, spawnBuiltServer, stopChild, table, writeResult } from "./lib.ts";
import { withFreshDatabase } from "./load.ts";

/**
 * Issue 14: a message to 10,000 customers, each with push on, sent by real server processes
 * (`src/server/index.ts`, the job engine's messages.send jobs) to a local HTTPS push service
 * that decrypts every payload. Composed over HTTP as the owner (the audience is frozen in that
 * request); timed until the message is "sent". On PostgreSQL: one process, two processes
 * (each recipient exactly once), and two processes with one killed (SIGKILL) a third of the
 * way (nobody twice; what it had in flight is "interrupted", counted failed). On PGlite: one
 * process (one process owns a data directory). BENCH_MESSAGES_RECIPIENTS changes the size,
 * BENCH_MESSAGES_ONLY=postgresql|pglite and BENCH_MESSAGES_SCENARIOS="1 process,2 processes" pick what runs.
 */
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/fidele_bench_messages";
const N = Number(process.env.BENCH_MESSAGES_RECIPIENTS ?? 10_000);
/** A killed process's claims are deemed interrupted after this (the default is 60 s). */
const LEASE_SECONDS = 10;
const APP_URL = "http://fidele.bench";

type Scenario = "1 process" | "2 processes" | "2 processes, 1 killed";
type Row = {
  database: "postgresql" | "pglite";
  scenario: Scenario;
  recipients: number;
  /** The compose request: audience counted and frozen (N in-app + N push rows). */
  freezeMs: number;
  /** From the compose request to the message's finishedAt (same machine's clock). */
  deliverMs: number;
  pushesPerSecond: number;
  inapp: number;
  pushed: number;
  interrupted: number;
  duplicates: number;
  missing: number;
  load: { before: number[]; after: number[] };
};

type Sent = {
  status: string;
  finishedAt: string | null;
  counts: { delivered: number; pushDelivered: number; failed: number; pending: number };
};

type Server = { child: ChildProcess; url: string; out: () => string; exited: Promise<number> };

async function startServerProcess(env: Record<string, string>): Promise<Server> {
  const { child, port } = await spawnBuiltServer({
    LOG_LEVEL: "info",
    APP_URL,
    MESSAGES_LEASE_SECONDS: String(LEASE_SECONDS),
    JOBS_SUPERVISE_SECONDS: "5",
    ...env,
  });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  const kill = () => child.kill("SIGKILL");
  process.once("exit", kill);
  const exited = new Promise<number>((resolve) =>
    child.once("exit", (code) => {
      process.removeListener("exit", kill);
      resolve(code ?? 1);
    }),
  );
  const server = { child, url: `http://127.0.0.1:${port}`, out: () => out, exited };
  await until(
    "the server to answer and its job engine to start",
    () => out.includes("jobs: engine started"),
    180_000,
    server,
  );
  return server;
}

const stopServer = (server: Server) => stopChild(server.child, server.exited);

async function until<T>(
  what: string,
  probe: () => Promise<T> | T,
  timeoutMs: number,
  server?: Server,
  everyMs = 250,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (server && server.child.exitCode !== null)
      throw new Error(`server exited while waiting for ${what}:\n${server.out()}`);
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}${server ? `\n${server.out().slice(-3000)}` : ""}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The owner's session cookie, made in the database (as the server would at sign-in). */
async function prepareWorld(database: Database, secret: string, ps: PushService) {
  const deps = await createDeps(parseEnv({ SECRET: secret, SEED_DEMO: "0", DATA_DIR: tmpdir() }), {
    database,
    logger: createLogger("warn"),
  });
  const owner = await createUser(deps, { withoutPassword: true });
  const world = await seedMessagesWorld(database.db, N, ps, { ownerId: owner.id });
  const session = await (await deps.auth.$context).internalAdapter.createSession(owner.id);
  const cookie = `fidele.session_token=${encodeURIComponent(`${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`)}`;
  return { ...world, cookie };
}

type World = Awaited<ReturnType<typeof prepareWorld>>;

function countReceived(ps: PushService, pushIds: string[], messageId: string) {
  const counts = new Map<string, number>();
  for (const r of ps.received) {
    if ((r.payload as { id?: string }).id === messageId) counts.set(r.deviceId, (counts.get(r.deviceId) ?? 0) + 1);
  }
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

async function sentMessage(server: Server, world: World, id: string): Promise<Sent> {
  const res = await fetch(`${server.url}/api/backoffice/shops/${world.shopId}/messages/${id}`, {
    headers: { cookie: world.cookie },
  });
  if (!res.ok) throw new Error(`GET sent message: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { message: Sent }).message;
}

/** Composes over HTTP on `servers[0]`, waits for "sent" (killing servers[0] a third of the way when asked). */
async function send(
  database: Row["database"],
  scenario: Scenario,
  servers: Server[],
  world: World,
  ps: PushService,
): Promise<Row> {
  const before = loadavg();
  const started = Date.now();
  const res = await fetch(`${servers[0]!.url}/api/backoffice/shops/${world.shopId}/messages`, {
    method: "POST",
    headers: { cookie: world.cookie, origin: APP_URL, "content-type": "application/json" },
    body: JSON.stringify({
      title: "Soldes d'hiver",
      body: "-20 % sur tout le magasin ce week-end.",
      push: true,
      segment: { kind: "all" },
    }),
  });
  if (res.status !== 201) throw new Error(`compose: ${res.status} ${await res.text()}`);
  const freezeMs = Date.now() - started;
  const id = ((await res.json()) as { message: { id: string } }).message.id;
  let watcher = servers.at(-1)!;
  if (scenario === "2 processes, 1 killed") {
    await until("a third of the pushes", () => countReceived(ps, world.pushIds, id).pushed >= N / 3, 600_000);
    servers[0]!.child.kill("SIGKILL");
    await servers[0]!.exited;
    console.log(`  killed one process after ${countReceived(ps, world.pushIds, id).pushed} pushes`);
    watcher = servers[1]!;
  }
  // Read every 2 s, as the owner's progress bar does; the time is the message's own finishedAt.
  const sent = await until<Sent | null>(
    "the message to be sent",
    async () => {
      const m = await sentMessage(watcher, world, id);
      return m.status === "sent" ? m : null;
    },
    900_000,
    undefined,
    2000,
  );
  if (!sent?.finishedAt) throw new Error("a sent message has its finishedAt");
  const deliverMs = Date.parse(sent.finishedAt) - started;
  const got = countReceived(ps, world.pushIds, id);
  // Devices of interrupted rows may or may not have got it (their process died mid-request): not "missing".
  const missing = Math.max(0, got.missing - sent.counts.failed);
  const sending = servers.filter((s) => s.out().includes(`"messageId":"${id}"`)).length;
  console.log(`  ${database}, ${scenario}: ${(deliverMs / 1000).toFixed(1)} s, ${sending} process(es) sent`);
  return {
    database,
    scenario,
    recipients: N,
    freezeMs,
    deliverMs,
    pushesPerSecond: Math.round((got.pushed / deliverMs) * 1000),
    inapp: sent.counts.delivered,
    pushed: sent.counts.pushDelivered,
    interrupted: sent.counts.failed,
    duplicates: got.duplicates,
    missing,
    load: { before, after: loadavg() },
  };
}

function serverEnv(vapid: webpush.VapidKeys, caFile: string, secret: string, ps: PushService) {
  return {
    PUSH_SERVICE_ORIGINS: ps.origin,
    SECRET: secret,
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:bench@fidele.local",
    // The servers trust the local push service's certificate.
    NODE_EXTRA_CA_CERTS: caFile,
  };
}

async function benchPostgres(adminUrl: string, ps: PushService, vapid: webpush.VapidKeys, caFile: string) {
  return withFreshDatabase(adminUrl, "fidele_bench_messages", async (url) => {
    const database = await openDatabase({ url, poolSize: 4 });
    // The database is dropped (with force) at the end: idle connections are told so.
    database.pool?.on("error", () => {});
    await migrateDatabase(database);
    const secret = randomBytes(32).toString("hex");
    const rows: Row[] = [];
    try {
      const wanted = process.env.BENCH_MESSAGES_SCENARIOS?.split(",");
      const scenarios = (["1 process", "2 processes", "2 processes, 1 killed"] as const).filter(
        (s) => !wanted || wanted.includes(s),
      );
      for (const scenario of scenarios) {
        console.log(`postgresql, ${scenario}: seeding ${N} customers…`);
        const world = await prepareWorld(database, secret, ps);
        const env = { ...serverEnv(vapid, caFile, secret, ps), DATABASE_URL: url };
        const servers: Server[] = [];
        try {
          for (let i = 0; i < (scenario === "1 process" ? 1 : 2); i++) servers.push(await startServerProcess(env));
          rows.push(await send("postgresql", scenario, servers, world, ps));
        } finally {
          await Promise.all(servers.map(stopServer));
        }
      }
    } finally {
      await database.close();
    }
    return rows;
  });
}

async function benchPglite(ps: PushService, vapid: webpush.VapidKeys, caFile: string): Promise<Row> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fidele-bench-messages-"));
  try {
    const secret = randomBytes(32).toString("hex");
    console.log(`pglite: seeding ${N} customers…`);
    const database = await openDatabase({ dataDir });
    await migrateDatabase(database);
    const world = await prepareWorld(database, secret, ps);
    await database.close();
    const server = await startServerProcess({ ...serverEnv(vapid, caFile, secret, ps), DATA_DIR: dataDir });
    try {
      return await send("pglite", "1 process", [server], world, ps);
    } finally {
      await stopServer(server);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export async function runMessages(): Promise<boolean> {
  const ps = await startPushService();
  const caFile = path.join(tmpdir(), `fidele-bench-push-ca-${process.pid}.pem`);
  writeFileSync(caFile, ps.cert);
  const vapid = webpush.generateVAPIDKeys();
  const rows: Row[] = [];
  try {
    const only = process.env.BENCH_MESSAGES_ONLY; // "postgresql" or "pglite"
    if (only !== "pglite") {
      try {
        rows.push(...(await benchPostgres(process.env.BENCH_MESSAGES_DATABASE_URL ?? DEFAULT_URL, ps, vapid, caFile)));
      } catch (error) {
        console.error("PostgreSQL messages benchmark failed:", error);
        return false;
      }
    }
    if (only !== "postgresql") rows.push(await benchPglite(ps, vapid, caFile));
  } finally {
    await ps.close();
    rmSync(caFile, { force: true });
  }
  console.log(
    table(
      [
        "database",
        "scenario",
        "recipients",
        "freeze s",
        "deliver s",
        "push/s",
        "in-app",
        "pushed",
        "interrupted",
        "twice",
        "missed",
        "load 1m before→after",
      ],
      rows.map((r) => [
        r.database,
        r.scenario,
        r.recipients,
        (r.freezeMs / 1000).toFixed(1),
        (r.deliverMs / 1000).toFixed(1),
        r.pushesPerSecond,
        r.inapp,
        r.pushed,
        r.interrupted,
        r.duplicates,
        r.missing,
        `${r.load.before[0]!.toFixed(1)}→${r.load.after[0]!.toFixed(1)}`,
      ]),
    ),
  );
  const file = writeResult("messages", { recipients: N, leaseSeconds: LEASE_SECONDS, rows });
  console.log(`→ ${path.relative(ROOT, file)}`);
  // Exactly once: nobody twice, in every scenario; nobody missed; a killed process's in-flight rows are
  // "interrupted" (failed), at most its pool (the push driver's concurrency).
  return rows.every(
    (r) =>
      r.inapp === N &&
      r.duplicates === 0 &&
      r.missing === 0 &&
      r.pushed + r.interrupted === N &&
      (r.scenario === "2 processes, 1 killed" ? r.interrupted <= pushDriver.concurrency : r.interrupted === 0),
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
