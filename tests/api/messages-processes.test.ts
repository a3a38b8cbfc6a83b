import { createHmac, randomBytes } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createUser } from "../../src/server/db/factories.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { pushDriver } from "../../src/server/modules/messages/channels/push-driver.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { createDeps } from "../../src/server/server.ts";
import { seedMessagesWorld } from "../fixtures/messages-world.ts";
import { type PushService, startPushService } from "../fixtures/push-service.ts";
import { serverLogs, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { SLOW_WORK, until } from "../setup/timing.ts";
import { createScratchDatabase } from "../setup/scratch-db.ts";

/**
 * Sending across two server processes (as `npm start` runs them) on one PostgreSQL database
 * of their own, pushing to a local HTTPS push service that decrypts every payload: one message
 * reaches each subscription exactly once with both processes sending; a process killed (SIGKILL)
 * mid-send leaves what it had in flight "interrupted" (failed, never resent) and the other one
 * delivers all the rest — nobody gets it twice.
 */
const url = inject("testDatabaseUrl");
const APP_URL = "http://fidele.test";
const servers: ServerProcess[] = [];
/** Every wait of this file reports what the servers printed when it fails. */
const logs = { context: () => serverLogs(servers) };
let scratch: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
let deps: Deps | undefined;
let ps: PushService | undefined;
let caFile: string | undefined;
let cookie = "";
let env: Record<string, string> = {};
let ownerId = "";

/** Which servers took a slice of this message (runSendSlice logs "messages: sending" as it starts one). */
function sendersOf(messageId: string) {
  return servers.flatMap((s, i) => (s.stdout().includes(`"messageId":"${messageId}"`) ? [i] : []));
}

async function compose(server: ServerProcess, shopId: string) {
  const res = await fetch(`${server.url}/api/backoffice/shops/${shopId}/messages`, {
    method: "POST",
    headers: { cookie, origin: APP_URL, "content-type": "application/json" },
    body: JSON.stringify({ title: "Soldes", body: "-20 % ce week-end", push: true, segment: { kind: "all" } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { message: { id: string } }).message.id;
}

async function pushRows(messageId: string) {
  const rows = await deps!.db.execute<{ status: string; detail: string | null; endpoint: string | null }>(sql`
    select d.status, d.detail, (select s.endpoint from push_subscriptions s where s.user_id = d.user_id limit 1) as endpoint
    from message_deliveries d where d.message_id = ${messageId} and d.channel = 'push'`);
  return rows.rows.map((r) => ({ ...r, pushId: r.endpoint?.split("/").pop() ?? "" }));
}

const receivedBy = (pushId: string, messageId: string) =>
  ps!.for(pushId).filter((r) => (r.payload as { id?: string }).id === messageId).length;

async function statusOf(messageId: string) {
  const [row] = (await deps!.db.execute<{ status: string }>(sql`select status from messages where id = ${messageId}`))
    .rows;
  return row?.status;
}

describe.skipIf(!url)("sending across two server processes on one PostgreSQL (run on the PostgreSQL pass)", () => {
  beforeAll(async () => {
    scratch = await createScratchDatabase(url, "msg2p");
    ps = await startPushService();
    caFile = path.join(tmpdir(), `fidele-push-ca-${process.pid}-${randomBytes(3).toString("hex")}.pem`);
    writeFileSync(caFile, ps.cert);
    const vapid = webpush.generateVAPIDKeys();
    const secret = randomBytes(32).toString("hex");
    env = {
      DATABASE_URL: scratch.url,
      APP_URL,
      SECRET: secret,
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:test@fidele.local",
      // The servers trust the local push service's certificate.
      NODE_EXTRA_CA_CERTS: caFile,
      PUSH_SERVICE_ORIGINS: ps.origin,
      JOBS_SUPERVISE_SECONDS: "1",
      MESSAGES_LEASE_SECONDS: "4",
      LOG_LEVEL: "info",
    };
    deps = await createDeps(parseEnv({ ...env, SEED_DEMO: "0" }), { logger: createLogger("warn") });
    const owner = await createUser(deps, { withoutPassword: true });
    ownerId = owner.id;
    const session = await (await deps.auth.$context).internalAdapter.createSession(owner.id);
    cookie = `fidele.session_token=${encodeURIComponent(`${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`)}`;
    for (let i = 0; i < 2; i++) servers.push(await spawnServer(env));
    await Promise.all(servers.map((s) => waitHealthy(s)));
    await until("both engines to start", () => servers.every((s) => s.stdout().includes("jobs: engine started")), logs);
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
    await deps?.database.close();
    await ps?.close();
    if (caFile) rmSync(caFile, { force: true });
    await scratch?.drop();
  });

  it("one message to 300 subscriptions: both processes send, each subscription receives it exactly once", async () => {
    const world = await seedMessagesWorld(deps!.db, 300, ps!, { ownerId });
    ps!.setDelay(150); // a push service taking its time, so both processes have a share
    try {
      const id = await compose(servers[0]!, world.shopId);
      await until("the message to be sent", async () => (await statusOf(id)) === "sent", logs);
      const counts = world.pushIds.map((p) => receivedBy(p, id));
      expect(counts.filter((n) => n !== 1)).toEqual([]);
      const rows = await pushRows(id);
      expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
      expect(sendersOf(id).sort()).toEqual([0, 1]);
    } finally {
      ps!.setDelay(0);
    }
  });

  it("a process stopped mid-send (SIGTERM, a deploy) finishes what it had in flight: nothing interrupted, everyone once", async () => {
    const world = await seedMessagesWorld(deps!.db, 300, ps!, { ownerId });
    ps!.setDelay(250);
    try {
      const id = await compose(servers[0]!, world.shopId);
      const received = () => world.pushIds.reduce((n, p) => n + receivedBy(p, id), 0);
      await until(
        "both processes sending and a quarter out",
        () => sendersOf(id).length === 2 && received() >= 75,
        logs,
      );
      const stopping = servers[1]!;
      const started = Date.now();
      expect(await stopping.stop()).toBe(0);
      const stopMs = Date.now() - started;
      // The deploy's new process takes its place.
      servers[1] = await spawnServer(env);
      await waitHealthy(servers[1]);
      await until("the message to be sent", async () => (await statusOf(id)) === "sent", {
        ...logs,
        timeout: SLOW_WORK,
      });
      expect(world.pushIds.map((p) => receivedBy(p, id)).filter((n) => n !== 1)).toEqual([]);
      const rows = await pushRows(id);
      expect(rows.filter((r) => r.status !== "delivered")).toEqual([]);
      console.info(`stopped in ${stopMs} ms mid-send; 300 delivered, none interrupted`);
    } finally {
      ps!.setDelay(0);
    }
  });

  it("a process killed mid-send: what it had in flight is failed 'interrupted', the other delivers the rest, nobody twice", async () => {
    const world = await seedMessagesWorld(deps!.db, 400, ps!, { ownerId });
    ps!.setDelay(250);
    try {
      const id = await compose(servers[0]!, world.shopId);
      const received = () => world.pushIds.reduce((n, p) => n + receivedBy(p, id), 0);
      // Both are sending and a quarter is out: kill the route's process while its claims are in flight.
      await until(
        "both processes sending and a quarter out",
        () => sendersOf(id).length === 2 && received() >= 100,
        logs,
      );
      const victim = servers[0]!;
      victim.child.kill("SIGKILL");
      await victim.exited;
      const atKill = received();
      await until("the message to be sent", async () => (await statusOf(id)) === "sent", {
        ...logs,
        timeout: SLOW_WORK,
      });
      const rows = await pushRows(id);
      const interrupted = rows.filter((r) => r.status === "failed" && r.detail === "interrupted");
      const delivered = rows.filter((r) => r.status === "delivered");
      // Nobody twice; every delivered row's device got it once; the rest were interrupted (in flight at the kill).
      expect(world.pushIds.map((p) => receivedBy(p, id)).filter((n) => n > 1)).toEqual([]);
      expect(delivered.every((r) => receivedBy(r.pushId, id) === 1)).toBe(true);
      expect(delivered.length + interrupted.length).toBe(400);
      expect(interrupted.length).toBeGreaterThan(0);
      expect(interrupted.length).toBeLessThanOrEqual(pushDriver.concurrency); // one process's pool at most
      console.info(
        `killed with ${atKill} pushes out: ${delivered.length} delivered, ${interrupted.length} interrupted (failed), 0 twice`,
      );
      // The owner sees them as failed (/admin/message reads this), from the surviving process.
      const res = await fetch(`${servers[1]!.url}/api/backoffice/shops/${world.shopId}/messages/${id}`, {
        headers: { cookie },
      });
      const sent = ((await res.json()) as { message: { status: string; counts: Record<string, number> } }).message;
      expect(sent.status).toBe("sent");
      expect(sent.counts).toMatchObject({ failed: interrupted.length, pushDelivered: delivered.length, pending: 0 });
    } finally {
      ps!.setDelay(0);
    }
  });
});
