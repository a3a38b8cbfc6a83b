import { openDatabase } from "../src/server/db/client.ts";
import { createReward, grantPoints } from "../src/server/db/factories.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { type createDeps, startServer } from "../src/server/server.ts";
import { benchEnv, type ScanWorld, seedScanWorld } from "./scan-server.ts";
import { installLoopProbe } from "./loop-probe.ts";

/**
 * The server side of bench/redeem.ts: the shop and shoppers of the scan bench,
 * each shopper holding a billion points, and one reward costing 1 point with no
 * stock or limit, so every "Utiliser" is a successful reservation (the full write
 * path: card lock, redemption row, ledger entry). Prints one JSON line, serves until killed.
 */
export type RedeemWorld = ScanWorld & { rewardId: string; rewardSlug: string };

type Deps = Awaited<ReturnType<typeof createDeps>>;

export async function seedRedeemWorld(deps: Deps, userCount: number): Promise<RedeemWorld> {
  const world = await seedScanWorld(deps, userCount);
  const reward = await createReward(deps, { shopId: world.shopId, title: "Café du banc d'essai", cost: 1 });
  for (const user of world.users) await grantPoints(deps, { shopId: world.shopId, userId: user.id, points: 1_000_000_000, reason: "Banc d'essai" });
  return { ...world, rewardId: reward.id, rewardSlug: reward.slug };
}

async function main() {
  installLoopProbe();
  const url = process.env.BENCH_SCAN_DATABASE_URL;
  const userCount = Number(process.env.BENCH_SCAN_USERS ?? 256);
  const database = url ? await openDatabase({ url, poolSize: 10 }) : await openDatabase({ memory: true });
  const server = await startServer(benchEnv(), { database, logger: createLogger("warn") });
  const world = await seedRedeemWorld(server.deps, userCount);
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
