import pg from "pg";
import { SHARED_DEVICE_ACCOUNTS, SHARED_DEVICE_WINDOW_DAYS } from "../src/domain/loyalty/scan-rules.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { createDeps } from "../src/server/server.ts";
import { withFreshDatabase } from "./load.ts";
import { literal, runPgbench, writeBenchUsers } from "./pgbench.ts";
import { benchEnv, seedScanWorld } from "./scan-server.ts";
await withFreshDatabase("postgres://postgres@127.0.0.1:5432/fidele_scale_micro", "x", async (url) => {
  const database = await openDatabase({ url, poolSize: 4 });
  const deps = await createDeps(benchEnv(), { database, logger: createLogger("warn") });
  const world = await seedScanWorld(deps, 256);
  await writeBenchUsers(url, world.users);
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const v = (await c.query("select config_version as v from shops where id = $1", [world.shopId])).rows[0].v;
  const script = `\\set n random(0, 255)
select fidele_scan(u.id, u.id, ${literal(world.scanUid)}, gen_random_uuid()::text, 'rotating', 'valid', ${v}, '[]'::jsonb, false, u.device, ${SHARED_DEVICE_ACCOUNTS}, ${SHARED_DEVICE_WINDOW_DAYS}, null) from bench_users u where u.n = :n;
`;
  const set = async (on: boolean) => {
    for (const [t, n] of [["scans", "scans_daily_stats"], ["ledger_entries", "ledger_entries_daily_stats"], ["cards", "cards_daily_stats"]])
      await c.query(`alter table ${t} ${on ? "enable" : "disable"} trigger ${n}`);
  };
  for (const on of [true, false, true, false, true, false]) {
    await set(on);
    for (const clients of [1, 16]) {
      const r = await runPgbench(url, clients, script);
      console.log(`triggers ${on ? "on " : "off"} clients ${clients}: ${r?.rps}/s p50 ${r?.p50} p99 ${r?.p99}`);
    }
  }
  await c.end();
  await database.close();
});
process.exit(0);
