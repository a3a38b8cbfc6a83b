import { createHmac } from "node:crypto";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/server/db/client.ts";
import { createShop, createUser } from "../src/server/db/factories.ts";
import { parseEnv } from "../src/server/env.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { type createDeps, startServer } from "../src/server/server.ts";
import { installLoopProbe } from "./loop-probe.ts";

/**
 * The server side of bench/scan.ts: the real server (production settings,
 * startServer) in its own process, on PostgreSQL (BENCH_SCAN_DATABASE_URL) or an
 * in-memory PGlite. It seeds one shop and BENCH_SCAN_USERS shoppers with open
 * sessions, prints one JSON line (port, shop code, cookies) and serves until killed.
 * `seedScanWorld` is also used in-process by the raw-SQL runs on PGlite.
 */
export const BENCH_SECRET = "bench-secret-bench-secret-bench-secret-0123456789";

export type ScanWorld = {
  shopId: string;
  scanUid: string;
  codeSecret: string;
  users: { id: string; cookie: string; deviceId: string }[];
};

type Deps = Awaited<ReturnType<typeof createDeps>>;

export async function seedScanWorld(deps: Deps, userCount: number): Promise<ScanWorld> {
  const owner = await createUser(deps, { withoutPassword: true, firstName: "Bench", lastName: "Owner" });
  const shop = await createShop(deps, { ownerId: owner.id, name: "Boutique du banc d'essai", rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0 } });
  // Every attempt must be a credited visit (the full write path): no cooldown, a daily cap out of reach.
  await deps.db.execute(sql`update shops set daily_cap = 1000000000 where id = ${shop.id}`);
  const [row] = (await deps.db.execute<{ code_secret: string }>(sql`select code_secret from shops where id = ${shop.id}`)).rows;
  const ctx = await deps.auth.$context;
  const users: ScanWorld["users"] = [];
  for (let i = 0; i < userCount; i++) {
    const user = await createUser(deps, { withoutPassword: true });
    const session = await ctx.internalAdapter.createSession(user.id);
    const signature = createHmac("sha256", deps.env.SECRET).update(session.token).digest("base64");
    users.push({ id: user.id, cookie: `fidele.session_token=${encodeURIComponent(`${session.token}.${signature}`)}`, deviceId: `bench-device-${i}` });
  }
  return { shopId: shop.id, scanUid: shop.scanUid, codeSecret: row!.code_secret, users };
}

export function benchEnv(extra: Record<string, string> = {}) {
  return parseEnv({
    NODE_ENV: "production",
    PORT: "0",
    HOST: "127.0.0.1",
    APP_URL: "http://127.0.0.1",
    DATA_DIR: path.join(tmpdir(), `fidele-bench-scan-${process.pid}`),
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    SECRET: BENCH_SECRET,
    ...extra,
  });
}

async function main() {
  installLoopProbe();
  const url = process.env.BENCH_SCAN_DATABASE_URL;
  const userCount = Number(process.env.BENCH_SCAN_USERS ?? 256);
  const database = url ? await openDatabase({ url, poolSize: 10 }) : await openDatabase({ memory: true });
  const server = await startServer(benchEnv(), { database, logger: createLogger("warn") });
  const world = await seedScanWorld(server.deps, userCount);
  process.stdout.write(`${JSON.stringify({ port: server.port, ...world })}\n`);
  const stop = () => {
    void server.close().finally(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
