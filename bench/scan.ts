import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import http from "node:http";
import path from "node:path";
import { createInterface } from "node:readline";
import pg from "pg";
import { importCodeKey, rotatingToken, timeStep } from "../src/domain/loyalty/scan-code.ts";
import { SHARED_DEVICE_ACCOUNTS, SHARED_DEVICE_WINDOW_DAYS } from "../src/domain/loyalty/scan-rules.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { createDeps } from "../src/server/server.ts";
import { ROOT, table, writeResult } from "./lib.ts";
import { benchEnv, type ScanWorld, seedScanWorld } from "./scan-server.ts";

/**
 * Issue 4 budget: a scan over HTTP (the real server in its own process, session
 * cookie, rotating code checked, JSON answer) reaches at least half the throughput
 * of the same transaction sent as raw SQL (`select fidele_scan(...)`, one named
 * prepared statement through a pool of 10) on the same database, and its p99 stays
 * under 50 ms at 16 clients. Run with 1, 16 and 64 concurrent clients, on
 * PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/fidele_bench,
 * created and dropped here) and on PGlite (in memory). Every attempt is a credited
 * visit (no cooldown): the full write path. Each run is bounded by BENCH_SCAN_SECONDS
 * (default 5) and BENCH_SCAN_MAX (default 20 000 requests), after a short warm-up.
 */
const CONCURRENCY = [1, 16, 64];
const SECONDS = Number(process.env.BENCH_SCAN_SECONDS ?? 5);
const MAX_REQUESTS = Number(process.env.BENCH_SCAN_MAX ?? 20_000);
const WARMUP_REQUESTS = 200;
const USERS = 256;
const BUDGET_RATIO = 0.5;
const BUDGET_P99_MS = 50;
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/fidele_bench";

export type Stats = { requests: number; seconds: number; rps: number; p50: number; p99: number; errors: number };
type Row = { database: "postgresql" | "pglite"; clients: number; http: Stats; sql: Stats; ratio: number };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** `clients` loops, each sending one request after the other, until the time or request bound. */
export async function drive(clients: number, once: (client: number, n: number) => Promise<boolean>): Promise<Stats> {
  for (let i = 0; i < WARMUP_REQUESTS; i += clients) {
    await Promise.all(Array.from({ length: clients }, (_, c) => once(c, i).catch(() => false)));
  }
  const latencies: number[] = [];
  let errors = 0;
  let sent = 0;
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: clients }, async (_, c) => {
      while (performance.now() < deadline && sent < MAX_REQUESTS) {
        const n = sent++;
        const t0 = performance.now();
        const ok = await once(c, n).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const round = (v: number) => Math.round(v * 10) / 10;
  return {
    requests: latencies.length,
    seconds: round(seconds),
    rps: Math.round(latencies.length / seconds),
    p50: round(percentile(latencies, 50)),
    p99: round(percentile(latencies, 99)),
    errors,
  };
}

/** The rotating token of the current step, recomputed when the step changes. */
function tokenSource(world: ScanWorld) {
  let step = -1;
  let token = "";
  let pending: Promise<string> | null = null;
  const keyP = importCodeKey(world.codeSecret);
  return async () => {
    const now = timeStep(Date.now());
    if (now !== step) {
      pending ??= keyP.then((key) => rotatingToken(key, world.scanUid, now)).then((t) => {
        step = now;
        token = t;
        pending = null;
        return t;
      });
      return pending;
    }
    return token;
  };
}

function httpScanner(port: number, world: ScanWorld, clients: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients });
  const token = tokenSource(world);
  const once = async (client: number, n: number) => {
    const user = world.users[(client + n * clients) % world.users.length]!;
    const body = JSON.stringify({ scanUid: world.scanUid, token: await token(), deviceId: user.deviceId, idempotencyKey: randomUUID() });
    return new Promise<boolean>((resolve, reject) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          path: "/api/cards/scan",
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), cookie: user.cookie },
        },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (d) => {
            text += d;
          });
          res.on("end", () => resolve(res.statusCode === 200 && text.includes('"outcome":"accepted"')));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  };
  return { once, close: () => agent.destroy() };
}

const SCAN_SQL = "select fidele_scan($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) as r";

function scanParams(world: ScanWorld, user: ScanWorld["users"][number], configVersion: number) {
  return [
    user.id,
    user.id,
    world.scanUid,
    randomUUID(),
    "rotating",
    "valid",
    configVersion,
    1,
    null,
    false,
    user.deviceId,
    SHARED_DEVICE_ACCOUNTS,
    SHARED_DEVICE_WINDOW_DAYS,
  ];
}

const accepted = (r: { r: { outcome: string } } | undefined) => r?.r.outcome === "accepted";

/** Spawns bench/scan-server.ts and reads its JSON line. */
async function startServerProcess(databaseUrl: string | null) {
  const child = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "bench/scan-server.ts")], {
    cwd: ROOT,
    env: { ...process.env, BENCH_SCAN_USERS: String(USERS), ...(databaseUrl ? { BENCH_SCAN_DATABASE_URL: databaseUrl } : {}), DATABASE_URL: "" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! });
  const world = await new Promise<ScanWorld & { port: number }>((resolve, reject) => {
    lines.once("line", (line) => resolve(JSON.parse(line)));
    child.once("exit", (code) => reject(new Error(`scan server exited with ${code}`)));
  });
  return {
    world,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

async function configVersionOf(query: (text: string, values: unknown[]) => Promise<{ rows: { v: number }[] }>, shopId: string) {
  return (await query("select config_version as v from shops where id = $1", [shopId])).rows[0]!.v;
}

async function benchPostgres(adminUrl: string): Promise<Row[]> {
  const url = new URL(adminUrl);
  const dbName = url.pathname.slice(1) || "fidele_bench";
  const maintenance = new URL(adminUrl);
  maintenance.pathname = "/postgres";
  const admin = new pg.Client({ connectionString: maintenance.toString() });
  await admin.connect();
  await admin.query(`drop database if exists "${dbName}" with (force)`);
  await admin.query(`create database "${dbName}"`);
  const rows: Row[] = [];
  const server = await startServerProcess(url.toString());
  const pool = new pg.Pool({ connectionString: url.toString(), max: 10 });
  try {
    const world = server.world;
    const version = await configVersionOf((t, v) => pool.query(t, v), world.shopId);
    for (const clients of CONCURRENCY) {
      const h = httpScanner(world.port, world, clients);
      const httpStats = await drive(clients, h.once);
      h.close();
      const sqlStats = await drive(clients, async (client, n) => {
        const user = world.users[(client + n * clients) % world.users.length]!;
        const res = await pool.query({ name: "fidele_scan", text: SCAN_SQL, values: scanParams(world, user, version) });
        return accepted(res.rows[0]);
      });
      rows.push({ database: "postgresql", clients, http: httpStats, sql: sqlStats, ratio: httpStats.rps / sqlStats.rps });
    }
  } finally {
    await pool.end();
    await server.stop();
    await admin.query(`drop database if exists "${dbName}" with (force)`);
    await admin.end();
  }
  return rows;
}

async function benchPglite(): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startServerProcess(null);
  // The raw-SQL side needs its own PGlite (one process owns one): same migrations, same seed.
  const database = await openDatabase({ memory: true });
  const deps = await createDeps(benchEnv(), { database, logger: createLogger("warn") });
  try {
    const world = await seedScanWorld(deps, USERS);
    const pglite = database.pglite!;
    const version = await configVersionOf((t, v) => pglite.query<{ v: number }>(t, v), world.shopId);
    for (const clients of CONCURRENCY) {
      const h = httpScanner(server.world.port, server.world, clients);
      const httpStats = await drive(clients, h.once);
      h.close();
      const sqlStats = await drive(clients, async (client, n) => {
        const user = world.users[(client + n * clients) % world.users.length]!;
        const res = await pglite.query<{ r: { outcome: string } }>(SCAN_SQL, scanParams(world, user, version));
        return accepted(res.rows[0]);
      });
      rows.push({ database: "pglite", clients, http: httpStats, sql: sqlStats, ratio: httpStats.rps / sqlStats.rps });
    }
  } finally {
    await server.stop();
    await database.close();
  }
  return rows;
}

export async function runScan(): Promise<boolean> {
  const databaseUrl = process.env.BENCH_DATABASE_URL ?? DEFAULT_URL;
  const rows: Row[] = [];
  try {
    rows.push(...(await benchPostgres(databaseUrl)));
  } catch (error) {
    console.error(`PostgreSQL scan benchmark failed (${databaseUrl}):`, error);
    return false;
  }
  rows.push(...(await benchPglite()));

  const checks = rows.map((r) => {
    const ratioOk = r.clients === 1 || r.ratio >= BUDGET_RATIO;
    const p99Ok = r.clients !== 16 || r.http.p99 < BUDGET_P99_MS;
    const clean = r.http.errors === 0 && r.sql.errors === 0;
    return { ...r, ok: ratioOk && p99Ok && clean };
  });
  console.log(
    table(
      ["database", "clients", "HTTP scans/s", "HTTP p50 ms", "HTTP p99 ms", "SQL scans/s", "SQL p50 ms", "SQL p99 ms", "HTTP/SQL", "errors", "budget"],
      checks.map((r) => [
        r.database,
        r.clients,
        r.http.rps,
        r.http.p50,
        r.http.p99,
        r.sql.rps,
        r.sql.p50,
        r.sql.p99,
        `${Math.round(r.ratio * 100)} %`,
        r.http.errors + r.sql.errors,
        r.ok ? "ok" : "FAIL",
      ]),
    ),
  );
  console.log(
    `budget: HTTP ≥ ${BUDGET_RATIO * 100} % of raw-SQL throughput at 16 and 64 clients, HTTP p99 < ${BUDGET_P99_MS} ms at 16 clients, no error.`,
  );
  const file = writeResult("scan", { seconds: SECONDS, maxRequests: MAX_REQUESTS, users: USERS, rows: checks });
  console.log(`→ ${path.relative(ROOT, file)}`);
  return checks.every((r) => r.ok);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runScan().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
