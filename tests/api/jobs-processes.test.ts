import { randomBytes, randomUUID } from "node:crypto";
import path from "node:path";
import { and, eq, sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createReward, createShop, createUser, grantPoints } from "../../src/server/db/factories.ts";
import { ledgerEntries, redemptions } from "../../src/server/db/schema/index.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { createDeps } from "../../src/server/server.ts";
import { ROOT, serverLogs, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { sleep, until } from "../setup/timing.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";

/**
 * Two server processes (as `npm start` runs them) on one PostgreSQL database of their own: a job
 * runs once whichever process polls first; a job whose process dies mid-run runs again elsewhere
 * and completes; pending redemptions expire through the engine with nobody reading them.
 * Jobs are sent by this test through pg-boss itself, to the tests' probe queue, which these servers
 * register (tests/setup/probe-server.ts: startServer with the probe beside the app's jobs).
 */
const url = inject("testDatabaseUrl");
const servers: ServerProcess[] = [];
/** Every wait of this file reports what the servers printed when it fails. */
const logs = { context: () => serverLogs(servers) };
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let boss: PgBoss | undefined;
let deps: Deps | undefined;

type ProbeLine = { event: "started" | "done"; id: string; label: string; pid: number; attempt: number; server: number };
/** The probe's log lines of every server process, in the order each printed them. */
function probeLines(): ProbeLine[] {
  return servers.flatMap((server, index) =>
    server
      .stdout()
      .split("\n")
      .filter((line) => line.includes('"msg":"job test.probe '))
      .map((line) => {
        const { msg, id, label, pid, attempt } = JSON.parse(line) as Omit<ProbeLine, "event" | "server"> & {
          msg: string;
        };
        return {
          event: msg.endsWith("started") ? ("started" as const) : ("done" as const),
          id,
          label,
          pid,
          attempt,
          server: index,
        };
      }),
  );
}

describe.skipIf(!url)("jobs across two server processes on one PostgreSQL (run on the PostgreSQL pass)", () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(url, "jobs2p");
    const env = {
      DATABASE_URL: scratch.url,
      SECRET: randomBytes(32).toString("hex"),
      JOBS_SUPERVISE_SECONDS: "1",
      LOG_LEVEL: "info",
    };
    // This process's own handle on the database, for factories and checks.
    deps = await createDeps(parseEnv({ ...env, SEED_DEMO: "0" }), { logger: createLogger("warn") });
    for (let i = 0; i < 2; i++)
      servers.push(await spawnServer(env, { entry: path.join(ROOT, "tests/setup/probe-server.ts") }));
    await Promise.all(servers.map((s) => waitHealthy(s)));
    await until("both engines to start", () => servers.every((s) => s.stdout().includes("jobs: engine started")), logs);
    // This process only sends and looks: no maintenance, no schedules, no schema work of its own.
    boss = new PgBoss({ connectionString: scratch.url, max: 2, supervise: false, schedule: false, migrate: false });
    boss.on("error", () => {});
    await boss.start();
  });

  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true }).catch(() => {});
    await Promise.all(servers.map((s) => s.stop()));
    await deps?.database.close();
    await scratch?.drop();
  });

  it("pending redemptions past their time expire through the engine, points given back once", async () => {
    const d = deps!;
    const owner = await createUser(d, { withoutPassword: true });
    const shop = await createShop(d, { ownerId: owner.id, rules: { mode: "points" } });
    const reward = await createReward(d, { shopId: shop.id, cost: 10 });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const shopper = await createUser(d, { withoutPassword: true });
      await grantPoints(d, { shopId: shop.id, userId: shopper.id, points: 10 });
      const { redemption } = await redeem(d.database, shopper.id, {
        rewardId: reward.id,
        idempotencyKey: randomUUID(),
      });
      ids.push(redemption.id);
    }
    await d.db
      .update(redemptions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(redemptions.shopId, shop.id));
    // Both processes asked at once; the queue holds one sweep at a time (stately) and each refund happens once.
    await Promise.all([boss!.send("redemptions.expire", {}), boss!.send("redemptions.expire", {})]);
    await until("the redemptions to expire", async () => {
      const rows = await d.db
        .select({ status: redemptions.status })
        .from(redemptions)
        .where(eq(redemptions.shopId, shop.id));
      return rows.length === 3 && rows.every((r) => r.status === "expired");
    }, logs);
    for (const id of ids) {
      const refunds = await d.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.refId, id), eq(ledgerEntries.kind, "refund")));
      expect(refunds).toHaveLength(1);
    }
    const sweeps = await boss!.findJobs<object>("redemptions.expire");
    expect(sweeps.filter((j) => j.state === "completed").length).toBeGreaterThan(0);
  });

  it("a job scheduled once runs exactly once while two processes poll its queue", async () => {
    const labels = Array.from({ length: 20 }, (_, i) => `once-${i}-${randomUUID()}`);
    // Due in 2 s, so both processes are polling when the jobs become available.
    const sent = await Promise.all(labels.map((label) => boss!.sendAfter("test.probe", { label }, null, 2)));
    expect(sent.every(Boolean)).toBe(true);
    await until("every job to complete", async () => {
      const jobs = await boss!.findJobs("test.probe");
      const mine = jobs.filter((j) => labels.includes((j.data as { label: string }).label));
      return mine.length === labels.length && mine.every((j) => j.state === "completed");
    }, logs);
    await sleep(3000); // time for a duplicate run to show, were there one
    const started = probeLines().filter((l) => l.event === "started" && labels.includes(l.label));
    expect(started.map((l) => l.label).sort()).toEqual([...labels].sort());
    expect(started.every((l) => l.attempt === 0)).toBe(true);
    // Both processes took part (SKIP LOCKED shares the queue, it does not hand it all to one).
    console.info(
      `probe jobs per server: ${[0, 1].map((i) => started.filter((l) => l.server === i).length).join(" / ")}`,
    );
  });

  it("a job whose process is killed mid-run is run again by the other process and completes", async () => {
    const label = `killed-${randomUUID()}`;
    const id = await boss!.send("test.probe", { label, holdMs: 3000 });
    const first = await until<ProbeLine>("a process to start the job", () =>
      probeLines().find((l) => l.event === "started" && l.label === label),
    );
    const victim = servers[first.server]!;
    victim.child.kill("SIGKILL");
    await victim.exited;
    const job = await until(
      "the job to complete after its process died",
      async () => {
        const [found] = await boss!.findJobs("test.probe", { id: id! });
        return found?.state === "completed" ? found : null;
      },
      logs,
    );
    expect(job.retryCount).toBe(1);
    const lines = probeLines().filter((l) => l.label === label);
    expect(lines.filter((l) => l.event === "done")).toEqual([
      expect.objectContaining({ server: 1 - first.server, attempt: 1 }),
    ]);
    const attempts = lines.filter((l) => l.event === "started").sort((a, b) => a.attempt - b.attempt);
    expect(attempts.map((l) => [l.attempt, l.server])).toEqual([
      [0, first.server],
      [1, 1 - first.server],
    ]);
  });
});
