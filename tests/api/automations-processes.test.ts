import { createHmac, randomBytes } from "node:crypto";
import { sql } from "drizzle-orm";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createShop, createUser, recordVisit } from "../../src/server/db/factories.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { recordPreference } from "../../src/server/modules/messages/consent.ts";
import { createDeps } from "../../src/server/server.ts";
import { serverLogs, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { until } from "../setup/timing.ts";
import { openAfter } from "../fixtures/send-window.ts";

/**
 * Issue 27, acceptance row 1 across processes (ADR 0046): two server processes (as `npm start` runs them) on one
 * PostgreSQL database of their own, their job engines polling the same queues. The clock is injected through the
 * job's data (`automations.run` with `now`, sent by this test through pg-boss itself, several at once so both
 * processes decide at the same moment); the servers' own engine then sends the messages. Every shopper away 31 days
 * has exactly one occasion of that absence, held out or sent exactly one win-back; the opted-out shopper has neither.
 */
const url = inject("testDatabaseUrl");
const APP_URL = "http://fidele.test";
const DAY = 86_400_000;
const servers: ServerProcess[] = [];
const logs = { context: () => serverLogs(servers) };
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let boss: PgBoss | undefined;
let deps: Deps | undefined;
let cookie = "";
let ownerId = "";

/** Sends `n` jobs (runs, by default) at `now` at once and waits for all of them to complete. */
async function runAt(now: Date, n = 4, queue: "automations.run" | "automations.measure" = "automations.run") {
  const ids = await Promise.all(Array.from({ length: n }, () => boss!.send(queue, { now: now.toISOString() })));
  await until(
    `the ${queue} jobs to complete`,
    async () => {
      const jobs = await boss!.findJobs(queue);
      const mine = jobs.filter((j) => ids.includes(j.id));
      if (mine.some((j) => j.state === "failed")) throw new Error(`a run failed: ${JSON.stringify(mine)}`);
      return mine.length === n && mine.every((j) => j.state === "completed");
    },
    logs,
  );
}

describe.skipIf(!url)("automations across two server processes on one PostgreSQL (run on the PostgreSQL pass)", () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(url, "auto2p");
    const secret = randomBytes(32).toString("hex");
    const env = { DATABASE_URL: scratch.url, APP_URL, SECRET: secret, JOBS_SUPERVISE_SECONDS: "1", LOG_LEVEL: "info" };
    deps = await createDeps(parseEnv({ ...env, SEED_DEMO: "0" }), { logger: createLogger("warn") });
    const owner = await createUser(deps, { withoutPassword: true });
    ownerId = owner.id;
    const session = await (await deps.auth.$context).internalAdapter.createSession(owner.id);
    cookie = `fidele.session_token=${encodeURIComponent(`${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`)}`;
    for (let i = 0; i < 2; i++) servers.push(await spawnServer(env));
    await Promise.all(servers.map((s) => waitHealthy(s)));
    await until("both engines to start", () => servers.every((s) => s.stdout().includes("jobs: engine started")), logs);
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

  it("issue 27 row 1: exactly one win-back per absence whichever process decides; the holdout gets nothing and is counted; the opted-out get nothing", async () => {
    const d = deps!;
    const shop = await createShop(d, {
      ownerId,
      rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
    });
    const start = new Date(Date.now() - DAY);
    const people: string[] = [];
    for (let i = 0; i < 60; i++) {
      const user = await createUser(d, { withoutPassword: true });
      await recordVisit(d, { shopId: shop.id, userId: user.id, at: start, delta: 10 });
      people.push(user.id);
    }
    const optedOut = people[0]!;
    await recordPreference(d.db, {
      userId: optedOut,
      shopId: shop.id,
      channel: "inapp",
      granted: false,
      wording: "Non merci.",
    });
    const res = await fetch(`${servers[0]!.url}/api/backoffice/shops/${shop.id}/automations/win_back`, {
      method: "PUT",
      headers: { cookie, origin: APP_URL, "content-type": "application/json" },
      body: JSON.stringify({
        enabled: true,
        days: 30,
        holdoutPercent: 20,
        title: "Vous nous manquez !",
        body: "Revenez.",
      }),
    });
    expect(res.status).toBe(200);

    const later = openAfter(start, 31);
    await runAt(later);
    const occasions = (
      await d.db.execute<{ user_id: string; holdout: boolean; message_id: string | null }>(sql`
        select user_id, holdout, message_id from automation_occasions where shop_id = ${shop.id}`)
    ).rows;
    expect(occasions.map((o) => o.user_id).sort()).toEqual(people.filter((p) => p !== optedOut).sort());
    const messageIds = [...new Set(occasions.flatMap((o) => (o.message_id ? [o.message_id] : [])))];
    expect(messageIds).toHaveLength(1);
    await until(
      "the win-back to be sent by the servers' engine",
      async () => {
        const [m] = (
          await d.db.execute<{ status: string }>(sql`select status from messages where id = ${messageIds[0]!}`)
        ).rows;
        return m?.status === "sent";
      },
      logs,
    );
    const inbox = new Map(
      (
        await d.db.execute<{ user_id: string; n: number }>(sql`
          select d.user_id, count(*)::int as n from message_deliveries d join messages m on m.id = d.message_id
          where m.shop_id = ${shop.id} and d.channel = 'inapp' and d.status = 'delivered' group by d.user_id`)
      ).rows.map((r) => [r.user_id, Number(r.n)]),
    );
    const held = occasions.filter((o) => o.holdout);
    expect(held.length).toBeGreaterThan(0);
    for (const o of occasions) expect(inbox.get(o.user_id)).toBe(o.holdout ? undefined : 1);
    expect(inbox.get(optedOut)).toBeUndefined();

    // More runs of the same moment, on both processes: nothing new.
    await runAt(later);
    expect(
      Number(
        (
          await d.db.execute<{ n: number }>(
            sql`select count(*)::int as n from automation_occasions where shop_id = ${shop.id}`,
          )
        ).rows[0]!.n,
      ),
    ).toBe(occasions.length);

    // One comes back and is away again: one more win-back (or holdout draw), for that absence only.
    const back = occasions.find((o) => !o.holdout)!.user_id;
    const returnAt = new Date(later.getTime() + 2 * DAY);
    await recordVisit(d, { shopId: shop.id, userId: back, at: returnAt, delta: 10 });
    const lastRun = openAfter(returnAt, 31);
    await runAt(lastRun);
    const mine = await d.db.execute<{ occasion: string }>(
      sql`select occasion from automation_occasions where shop_id = ${shop.id} and user_id = ${back} order by occasion`,
    );
    expect(mine.rows).toHaveLength(2);
    expect(
      Number(
        (
          await d.db.execute<{ n: number }>(
            sql`select count(*)::int as n from automation_occasions where shop_id = ${shop.id}`,
          )
        ).rows[0]!.n,
      ),
    ).toBe(occasions.length + 1);

    // The owner's results, from the other process, once the job automations.measure has measured what followed:
    // every occasion counted in its group.
    await runAt(lastRun, 1, "automations.measure");
    const page = (await (
      await fetch(`${servers[1]!.url}/api/backoffice/shops/${shop.id}/automations?days=90`, { headers: { cookie } })
    ).json()) as {
      automations: {
        kind: string;
        results: { sent: { people: number; returned: number }; holdout: { people: number } };
      }[];
    };
    const results = page.automations.find((a) => a.kind === "win_back")!.results;
    expect(results.holdout.people + results.sent.people).toBe(occasions.length + 1);
    expect(results.sent.returned).toBe(1);
    const deciders = servers.map(
      (s) =>
        s
          .stdout()
          .split("\n")
          .filter((l) => l.includes('"msg":"automations: decided"')).length,
    );
    console.info(
      `decided by server 0 / 1: ${deciders.join(" / ")} runs; ${held.length} of ${occasions.length} held out`,
    );
  });
});
