import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase } from "../src/server/db/client.ts";
import { createShop, createUser } from "../src/server/db/factories.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import type { ShopAccess } from "../src/server/lib/shop-access.ts";
import { customersCsv, listCustomers } from "../src/server/modules/cards/customers.service.ts";
import { getDashboard } from "../src/server/modules/cards/dashboard.service.ts";
import { listScans, scansCsv } from "../src/server/modules/cards/scans-list.service.ts";
import { createDeps } from "../src/server/server.ts";
import { writeResult } from "./lib.ts";
import { withFreshDatabase } from "./load.ts";
import { benchEnv } from "./scan-server.ts";

/**
 * Issue 11: one big shop on PostgreSQL (BENCH_SCALE_CUSTOMERS customers, default 50,000, and
 * BENCH_SCALE_SCANS scans, default 500,000, seeded with generate_series; reproducible: no randomness
 * but the ids), then the owner's back-office reads timed through their services (the HTTP layer adds a
 * constant), BENCH_SCALE_RUNS times each (default 15): p50 / p95 in ms, and the two exports drained whole
 * with the server's heap growth. Not yet: the 2,000 small shops, the shopper reads, four exports at once,
 * event-loop delay. Database: BENCH_SCALE_DATABASE_URL (dropped and made again).
 */
const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/fidele_perf_scale";
const CUSTOMERS = Number(process.env.BENCH_SCALE_CUSTOMERS ?? 50_000);
const SCANS = Number(process.env.BENCH_SCALE_SCANS ?? 500_000);
const RUNS = Number(process.env.BENCH_SCALE_RUNS ?? 15);

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
};

async function drain(file: { body?: ReadableStream<Uint8Array>; csv?: string }): Promise<number> {
  if (typeof file.csv === "string") return file.csv.length; // the old, whole-in-memory shape
  let bytes = 0;
  for await (const chunk of file.body!) bytes += chunk.byteLength;
  return bytes;
}

export async function runScale(): Promise<boolean> {
  const adminUrl = process.env.BENCH_SCALE_DATABASE_URL ?? DEFAULT_URL;
  return withFreshDatabase(adminUrl, "fidele_perf_scale", async (url) => {
    const database = await openDatabase({ url, poolSize: 10 });
    const deps = await createDeps(benchEnv(), { database, logger: createLogger("warn") });
    try {
      const owner = await createUser(deps, { withoutPassword: true });
      const shop = await createShop(deps, { ownerId: owner.id });
      const db = deps.db;
      const seedStart = performance.now();
      await db.execute(sql`
        insert into "user" (id, name, email, email_verified, created_at, updated_at)
        select 'u' || g, 'Client ' || g, 'client' || g || '@exemple.fr', true, now(), now()
        from generate_series(1, ${CUSTOMERS}) g`);
      await db.execute(sql`
        insert into profiles (id, first_name, last_name)
        select 'u' || g, 'Prénom' || (g % 997), 'Nom' || g from generate_series(1, ${CUSTOMERS}) g`);
      await db.execute(sql`
        insert into cards (id, shop_id, user_id, balance, lifetime, visits, last_scan_at, created_at)
        select 'c' || g, ${shop.id}, 'u' || g, g % 300, g % 900, g % 40,
               case when g % 10 = 0 then null else now() - (g % 365) * interval '1 day' end,
               now() - (g % 700) * interval '1 day'
        from generate_series(1, ${CUSTOMERS}) g`);
      await db.execute(sql`
        insert into scans (shop_id, user_id, actor_id, card_id, scan_uid, outcome, method, delta, flags, device_id,
                           idempotency_key, response, created_at)
        select ${shop.id}, 'u' || (1 + g % ${CUSTOMERS}), 'u' || (1 + g % ${CUSTOMERS}), 'c' || (1 + g % ${CUSTOMERS}),
               'seed', case when g % 9 = 0 then 'cooldown' else 'accepted' end, 'rotating', 10,
               case when g % 500 = 0 then array['shared_device'] else '{}'::text[] end, 'd' || (g % 20000),
               's' || g, '{}'::jsonb, now() - (g * (365 * 86400 / ${SCANS}::float8)) * interval '1 second'
        from generate_series(1, ${SCANS}) g`);
      await db.execute(sql`analyze`);
      const seedSeconds = (performance.now() - seedStart) / 1000;
      console.log(`seeded ${CUSTOMERS} customers, ${SCANS} scans in ${seedSeconds.toFixed(1)} s`);

      const access: ShopAccess = { shopId: shop.id, userId: owner.id, role: "owner", level: "owner" };
      const base = { limit: 50, offset: 0, order: "desc" as const };
      const reads: [string, () => Promise<unknown>][] = [
        ["scans, page 1", () => listScans(db, access, { limit: 100, offset: 0, flagged: false } as never)],
        ["scans, flagged", () => listScans(db, access, { limit: 100, offset: 0, flagged: true } as never)],
        ["customers, page 1", () => listCustomers(db, access, { ...base, sort: "lastVisit" } as never)],
        ["customers, by points", () => listCustomers(db, access, { ...base, sort: "points" } as never)],
        ["customers, by name", () => listCustomers(db, access, { ...base, sort: "name", order: "asc" } as never)],
        ["customers, search", () => listCustomers(db, access, { ...base, sort: "lastVisit", q: "nom4242" } as never)],
        ["dashboard, 365 days", () => getDashboard(db, access, 365)],
      ];
      const rows: { read: string; p50: number; p95: number }[] = [];
      for (const [name, read] of reads) {
        await read();
        const times: number[] = [];
        for (let i = 0; i < RUNS; i++) {
          const t0 = performance.now();
          await read();
          times.push(performance.now() - t0);
        }
        rows.push({ read: name, p50: quantile(times, 0.5), p95: quantile(times, 0.95) });
      }
      for (const [name, make] of [
        ["customers.csv", () => customersCsv(db, access, { ...base, sort: "lastVisit" } as never)],
        ["scans.csv", () => scansCsv(db, access, { limit: 100, offset: 0, flagged: false } as never)],
      ] as const) {
        global.gc?.();
        const heap0 = process.memoryUsage().heapUsed;
        let peak = heap0;
        const timer = setInterval(() => {
          peak = Math.max(peak, process.memoryUsage().heapUsed);
        }, 20);
        const t0 = performance.now();
        const bytes = await drain((await make()) as never);
        const ms = performance.now() - t0;
        clearInterval(timer);
        console.log(
          `${name}: ${(bytes / 1e6).toFixed(1)} MB in ${ms.toFixed(0)} ms, heap +${((peak - heap0) / 1e6).toFixed(0)} MB`,
        );
        rows.push({ read: `${name} (whole file)`, p50: ms, p95: ms });
      }
      console.log("read                          p50 ms    p95 ms");
      for (const r of rows)
        console.log(`${r.read.padEnd(28)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(9)}`);
      writeResult("scale", { customers: CUSTOMERS, scans: SCANS, runs: RUNS, seedSeconds, rows });
      return true;
    } finally {
      await database.close();
    }
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  runScale().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
