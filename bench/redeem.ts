import { randomUUID } from "node:crypto";
import { httpPoster } from "./http-client.ts";
import path from "node:path";
import pg from "pg";
import { openDatabase } from "../src/server/db/client.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { REDEEM_SQL } from "../src/server/modules/rewards/redemptions.service.ts";
import { createDeps } from "../src/server/server.ts";
import { ROOT, writeResult } from "./lib.ts";
import { reportLoop } from "./loop-probe.ts";
import {
  benchesDatabase,
  CONCURRENCY,
  drive,
  type Row,
  reportRows,
  startWorldServer,
  USERS,
  withFreshDatabase,
} from "./load.ts";
import { literal, runPgbench, writeBenchUsers } from "./pgbench.ts";
import { type RedeemWorld, seedRedeemWorld } from "./redeem-server.ts";
import { benchEnv } from "./scan-server.ts";

/**
 * Issue 5: redemption throughput and p99 beside the scan figures. "Utiliser" over
 * HTTP (the real server in its own process, session cookie, slug lookup, the
 * reservation, the redemption read back as JSON) against the same reservation sent
 * as raw SQL (`select fidele_redeem(...)`, a named prepared statement through a pool
 * of 10) on the same database, with 1, 16 and 64 clients, on PostgreSQL and PGlite.
 * Every attempt succeeds (cost 1, a billion points each). Bounds as bench/scan.ts
 * (BENCH_SCAN_SECONDS, BENCH_SCAN_MAX). Held to the scan bench's budget since issue 11
 * (HTTP ≥ 50 % of SQL, p99 < 50 ms at 16 clients).
 */
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/fidele_bench_redeem";

function httpRedeemer(port: number, world: RedeemWorld, clients: number) {
  const poster = httpPoster(port, clients);
  const once = async (client: number, n: number) => {
    const user = world.users[(client + n * clients) % world.users.length]!;
    const body = JSON.stringify({ idempotencyKey: randomUUID() });
    const answer = await poster.post(
      client,
      `/api/rewards/${world.rewardSlug}/redeem`,
      { cookie: user.cookie, origin: "http://127.0.0.1" },
      body,
    );
    return answer.status === 201;
  };
  return { once, close: poster.close };
}

const sqlParams = (world: RedeemWorld, userId: string) => [userId, world.rewardId, randomUUID(), "reward", null];
const accepted = (r: { r: { outcome: string } } | undefined) => r?.r.outcome === "accepted";

const startServerProcess = (databaseUrl: string | null) =>
  startWorldServer<RedeemWorld>("bench/redeem-server.ts", databaseUrl);

function benchPostgres(adminUrl: string): Promise<Row[]> {
  return withFreshDatabase(adminUrl, "fidele_bench_redeem", async (url) => {
    const rows: Row[] = [];
    const server = await startServerProcess(url);
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    try {
      const world = server.world;
      await writeBenchUsers(url, world.users);
      const script = `\\set n random(0, ${world.users.length - 1})
select fidele_redeem(u.id, ${literal(world.rewardId)}, gen_random_uuid()::text, 'reward', null) from bench_users u where u.n = :n;
`;
      for (const clients of CONCURRENCY) {
        const h = httpRedeemer(world.port, world, clients);
        await server.loop();
        const httpStats = await drive(clients, h.once);
        const loop = await server.loop();
        h.close();
        const sqlStats = await drive(clients, async (client, n) => {
          const user = world.users[(client + n * clients) % world.users.length]!;
          const res = await pool.query({ name: "fidele_redeem", text: REDEEM_SQL, values: sqlParams(world, user.id) });
          return accepted(res.rows[0]);
        });
        rows.push({
          database: "postgresql",
          clients,
          http: httpStats,
          sql: sqlStats,
          ratio: httpStats.rps / sqlStats.rps,
          pgbench: await runPgbench(url, clients, script),
          loop,
        });
      }
    } finally {
      await pool.end();
      await server.stop();
    }
    return rows;
  });
}

async function benchPglite(): Promise<Row[]> {
  const rows: Row[] = [];
  const server = await startServerProcess(null);
  // The raw-SQL side needs its own PGlite (one process owns one): same migrations, same seed.
  // The engine itself, on this thread (no worker's messages in the way): the yardstick the HTTP side is held to.
  const database = await openDatabase({ memory: true, worker: false });
  const deps = await createDeps(benchEnv(), { database, logger: createLogger("warn") });
  try {
    const world = await seedRedeemWorld(deps, USERS);
    const pglite = database.pglite!;
    for (const clients of CONCURRENCY) {
      const h = httpRedeemer(server.world.port, server.world, clients);
      await server.loop();
      const httpStats = await drive(clients, h.once);
      const loop = await server.loop();
      h.close();
      const sqlStats = await drive(clients, async (client, n) => {
        const user = world.users[(client + n * clients) % world.users.length]!;
        const res = await pglite.query<{ r: { outcome: string } }>(REDEEM_SQL, sqlParams(world, user.id));
        return accepted(res.rows[0]);
      });
      rows.push({
        database: "pglite",
        clients,
        http: httpStats,
        sql: sqlStats,
        ratio: httpStats.rps / sqlStats.rps,
        loop,
      });
    }
  } finally {
    await server.stop();
    await database.close();
  }
  return rows;
}

export async function runRedeem(): Promise<boolean> {
  const databaseUrl = process.env.BENCH_REDEEM_DATABASE_URL ?? DEFAULT_URL;
  const rows: Row[] = [];
  if (benchesDatabase("postgresql")) {
    try {
      rows.push(...(await benchPostgres(databaseUrl)));
    } catch (error) {
      console.error(`PostgreSQL redemption benchmark failed (${databaseUrl}):`, error);
      return false;
    }
  }
  if (benchesDatabase("pglite")) rows.push(...(await benchPglite()));
  const checks = reportRows(rows, "redeems", "budget");
  reportLoop(rows);
  const file = writeResult("redeem", { users: USERS, rows: checks });
  console.log(`→ ${path.relative(ROOT, file)}`);
  // Held to the budget (issue 11): HTTP ≥ 50 % of raw SQL at 16 and 64 clients, p99 < 50 ms at 16, no error.
  return checks.every((r) => r.ok);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runRedeem().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
