import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { openDatabase } from "../../src/server/db/client.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { createMessage } from "../../src/server/modules/messages/compose.service.ts";
import { getSentMessage } from "../../src/server/modules/messages/sent.service.ts";
import { finishIfDone, INTERRUPTED, processMessageBatch } from "../../src/server/modules/messages/sending.service.ts";
import { createDeps } from "../../src/server/server.ts";
import { type SmsGateways, startSmsGateways } from "../fixtures/sms-gateways.ts";
import { seedSmsWorld } from "../fixtures/sms-world.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";
import { createTestApp, ROOT, type TestApp } from "../setup/api.ts";
import { START, sleep, until } from "../setup/timing.ts";

/**
 * SMS campaigns through the sending engine (jobs/messages-send.ts runs processMessageBatch):
 * the audience frozen with the SMS consent, the operator's window (clock injected), the
 * STOP mention, and a process killed mid-campaign (nobody receives an SMS twice).
 */
let gw: SmsGateways;
beforeAll(async () => {
  gw = await startSmsGateways();
});
afterAll(async () => {
  await gw.close();
});

const shopSender = (world: { shopId: string; ownerId: string }) =>
  ({ kind: "shop", access: { shopId: world.shopId, userId: world.ownerId, role: "owner", level: "owner" } }) as const;
const countBy = (items: string[]) => items.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>());

describe("a campaign started at 21:00 on a Saturday", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: gw.envFor("smsgate") });
  });
  afterAll(async () => {
    await t.close();
  });

  it("reaches only customers who accepted SMS, in-app at once, and by SMS on Monday at 08:00 (Paris), with « STOP au … »", async () => {
    const world = await seedSmsWorld(t.deps.db, 6, { refusing: 3 });
    const message = {
      id: await createMessage(t.deps, shopSender(world), {
        title: "Fournée du lundi",
        body: "Croissants à -20 %.",
        push: false,
        sms: true,
        segment: { kind: "all" },
      }),
    };
    const frozen = await t.deps.db.execute<{ channel: string; n: number }>(sql`
      select channel, count(*)::int as n from message_deliveries where message_id = ${message.id} group by channel order by channel`);
    expect(frozen.rows).toEqual([
      { channel: "inapp", n: 9 },
      { channel: "sms", n: 6 },
    ]);

    const ours = () => gw.received.filter((r) => world.accepting.includes(r.to) || world.refusing.includes(r.to));
    const saturday = new Date("2026-11-21T20:00:00Z"); // Saturday 21 November 2026, 21:00 in Paris
    const first = await processMessageBatch(t.deps, message.id, { limit: 40, now: () => saturday });
    expect(first.delivered).toBe(9); // in-app
    expect(ours()).toHaveLength(0);
    const held = await t.deps.db.execute<{ status: string; not_before: Date | string }>(sql`
      select status, not_before from message_deliveries where message_id = ${message.id} and channel = 'sms'`);
    expect(held.rows).toHaveLength(6);
    for (const row of held.rows) {
      expect(row.status).toBe("pending");
      expect(new Date(row.not_before).toISOString()).toBe("2026-11-23T07:00:00.000Z"); // Monday 08:00 in Paris
    }

    const monday = new Date("2026-11-23T07:00:00Z");
    for (let i = 0; i < 5; i++) {
      const r = await processMessageBatch(t.deps, message.id, { limit: 40, now: () => monday });
      if (r.remaining === 0) break;
    }
    expect(await finishIfDone(t.deps.db, message.id)).toBe(true);
    expect((await getSentMessage(t.deps.db, shopSender(world), message.id)).sms).toEqual({
      delivered: 6,
      waiting: 0,
      nextAt: null,
    });
    const sent = ours();
    expect(sent.map((r) => r.to).sort()).toEqual([...world.accepting].sort());
    for (const sms of sent) expect(sms.text).toBe("Le Fournil : Fournée du lundi\nCroissants à -20 %.\nSTOP au 36180");
    const usage = await t.deps.db.execute<{ segments: number; month: string }>(
      sql`select segments, month from sms_usage where shop_id = ${world.shopId}`,
    );
    expect(usage.rows).toEqual([{ segments: 6, month: "2026-11" }]);
  });
});

const url = inject("testDatabaseUrl");

describe.skipIf(!url)("a process killed mid-campaign (PostgreSQL pass)", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let deps: Deps;
  let worker: ChildProcess | undefined;
  let smsEnv: Record<string, string> = {};
  beforeAll(async () => {
    scratch = await createScratchDatabase(url!, "smskill");
    const database = await openDatabase({ url: scratch.url, poolSize: 4 });
    // The window always open (the real clock drives this test); claims lapse after 2 s.
    smsEnv = {
      ...gw.envFor("smsgate"),
      SMS_SEND_DAYS: "1-7",
      SMS_SEND_HOURS: "00:00-24:00",
      SMS_SEND_ON_HOLIDAYS: "1",
      MESSAGES_LEASE_SECONDS: "2",
    };
    deps = await createDeps(parseEnv({ NODE_ENV: "test", SECRET: "s".repeat(40), ...smsEnv }), {
      database,
      logger: createLogger("silent"),
    });
  });
  afterAll(async () => {
    worker?.kill("SIGKILL");
    gw.setDelay(0);
    await deps?.database.close();
    await scratch?.drop();
  });

  it("resumes in another process: every customer gets the SMS at most once, the rows claimed by the dead one are failed 'interrupted'", async () => {
    const world = await seedSmsWorld(deps.db, 60);
    const message = {
      id: await createMessage(deps, shopSender(world), {
        title: "Soldes",
        body: "-30 % ce week-end.",
        push: false,
        sms: true,
        segment: { kind: "all" },
      }),
    };
    const ours = () => gw.received.filter((r) => world.accepting.includes(r.to));
    gw.setDelay(150); // each SMS takes a while at the gateway: the kill lands mid-send
    worker = spawn(process.execPath, ["--import", "tsx", path.join(ROOT, "tests/fixtures/sms-worker.ts")], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...smsEnv,
        SMS_WORKER_DB: scratch.url,
        SMS_WORKER_MESSAGE: message.id,
        LOG_LEVEL: "silent",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    worker.stderr?.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    // Its first SMS wait on the process starting (tsx, the app's modules): a process start's limit.
    await until("the worker's first 12 SMS", () => ours().length >= 12, {
      timeout: START,
      interval: 50,
      context: () => `it sent ${ours().length}\n${stderr}`,
    });
    worker.kill("SIGKILL");
    await new Promise((r) => worker!.once("exit", r));
    const atKill = ours().length;
    const claimed = await deps.db.execute<{ n: number }>(sql`
      select count(*)::int as n from message_deliveries where message_id = ${message.id} and channel = 'sms' and status = 'claimed'`);
    expect(claimed.rows[0]!.n).toBeGreaterThan(0); // it died with SMS in flight

    // Another process takes over once the dead one's claims are past their lease (2 s).
    await sleep(2500);
    gw.setDelay(0);
    for (let i = 0; i < 50; i++) {
      const r = await processMessageBatch(deps, message.id, { limit: 50 });
      if (r.remaining === 0) break;
    }
    expect(await finishIfDone(deps.db, message.id)).toBe(true);

    const received = countBy(ours().map((r) => r.to));
    expect([...received.values()].every((n) => n === 1)).toBe(true); // nobody twice
    const rows = await deps.db.execute<{ status: string; detail: string | null; n: number }>(sql`
      select status, detail, count(*)::int as n from message_deliveries
      where message_id = ${message.id} and channel = 'sms' group by status, detail order by status`);
    const by = Object.fromEntries(rows.rows.map((r) => [`${r.status}:${r.detail ?? ""}`, r.n]));
    const delivered = by["delivered:"] ?? 0;
    const interrupted = by[`failed:${INTERRUPTED}`] ?? 0;
    expect(delivered + interrupted).toBe(60);
    expect(interrupted).toBe(claimed.rows[0]!.n);
    // Each SMS the gateway got is a delivered row, or one the dead process had sent before it could mark it.
    expect(received.size).toBeGreaterThanOrEqual(delivered);
    expect(received.size - delivered).toBeLessThanOrEqual(interrupted);
    expect(received.size).toBeGreaterThanOrEqual(atKill);
    process.stdout.write(
      `${JSON.stringify({ sms: 60, atKill, claimedAtKill: claimed.rows[0]!.n, delivered, interrupted, received: received.size })}\n`,
    );
  });
});
