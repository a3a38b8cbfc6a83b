import { sql } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changeMessageStatus, createMessage } from "../../src/server/modules/messages/compose.service.ts";
import { getSentMessage } from "../../src/server/modules/messages/sent.service.ts";
import { trustCertificateAuthority } from "../../src/server/lib/outbound.ts";
import { seedMessagesWorld } from "../fixtures/messages-world.ts";
import { type PushService, startPushService } from "../fixtures/push-service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { SLOW_WORK, sleep, until } from "../setup/timing.ts";
import { openOwnDatabase } from "../setup/test-db.ts";

/**
 * Sending through the job engine in one process (the engine started): a message sent now,
 * a scheduled one (a messages.send job due at its time), pause and resume, and the
 * messages.sweep job picking up a message nobody queued (a restart). On a PostgreSQL pass
 * the file has a database of its own, so its sweeps never reach another file's messages.
 * Two processes and a killed one: messages-processes.test.ts.
 */
let t: TestApp;
let ps: PushService;
let dropScratch: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const own = await openOwnDatabase("msgjobs", 6);
  dropScratch = own.drop;
  const database = own.database;
  const vapid = webpush.generateVAPIDKeys();
  ps = await startPushService();
  trustCertificateAuthority(ps.cert);
  t = await createTestApp({
    jobs: true,
    database,
    env: {
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:test@fidele.local",
      PUSH_SERVICE_ORIGINS: ps.origin,
      JOBS_SUPERVISE_SECONDS: "1",
      MESSAGES_LEASE_SECONDS: "4",
    },
  });
});

afterAll(async () => {
  trustCertificateAuthority(undefined);
  await t?.close();
  await ps?.close();
  await dropScratch?.();
});

async function world(n: number) {
  const owner = await t.createUser({ withoutPassword: true });
  const w = await seedMessagesWorld(t.deps.db, n, ps, { ownerId: owner.id });
  const sender = {
    kind: "shop",
    access: { shopId: w.shopId, userId: owner.id, role: "owner", level: "owner" },
  } as const;
  return { ...w, sender };
}

const content = { title: "Soldes", body: "-20 % ce week-end", push: true, segment: { kind: "all" } } as const;

async function statusOf(id: string) {
  const [row] = (
    await t.deps.db.execute<{ status: string; started_at: Date | null; scheduled_at: Date | null }>(
      sql`select status, started_at, scheduled_at from messages where id = ${id}`,
    )
  ).rows;
  return row!;
}

/** How many pushes of this message each device received. */
function receivedPerDevice(pushIds: string[], messageId: string) {
  return pushIds.map((id) => ps.for(id).filter((r) => (r.payload as { id?: string }).id === messageId).length);
}

async function sendJobs(messageId: string) {
  const boss = t.deps.jobs.boss!;
  const jobs = await boss.findJobs<{ messageId: string; lane: number }>("messages.send", { data: { messageId } });
  return jobs;
}

describe("sending through the job engine", () => {
  it("a message sent now is delivered by messages.send jobs: every device once, in-app to all", async () => {
    const w = await world(25);
    const message = await getSentMessage(t.deps.db, w.sender, await createMessage(t.deps, w.sender, content));
    expect(message.status).toBe("sending");
    await until("the message to be sent", async () => (await statusOf(message.id)).status === "sent");
    expect(receivedPerDevice(w.pushIds, message.id)).toEqual(w.pushIds.map(() => 1));
    const [inapp] = (
      await t.deps.db.execute<{ n: number }>(sql`
        select count(*)::int as n from message_deliveries where message_id = ${message.id} and channel = 'inapp' and status = 'delivered'`)
    ).rows;
    expect(Number(inapp!.n)).toBe(25);
    const jobs = await sendJobs(message.id);
    expect(jobs.some((j) => j.state === "completed" && (j.output as { status?: string })?.status === "sent")).toBe(
      true,
    );
    expect(new Set(jobs.map((j) => j.singletonKey))).toEqual(new Set([`${message.id}:0`, `${message.id}:1`]));
  });

  it("pause stops the jobs mid-send, nothing goes out while paused; resume finishes, each device once", async () => {
    const w = await world(40);
    ps.setDelay(300);
    try {
      const message = await getSentMessage(t.deps.db, w.sender, await createMessage(t.deps, w.sender, content));
      await until("the first pushes", async () => receivedPerDevice(w.pushIds, message.id).some((n) => n > 0));
      await changeMessageStatus(t.deps, w.sender, message.id, "pause");
      // What was in flight lands and is marked (no claim left, no job running); then nothing moves.
      await until("the pushes in flight to land", async () => {
        const [claimed] = (
          await t.deps.db.execute<{ n: number }>(sql`
            select count(*)::int as n from message_deliveries where message_id = ${message.id} and status = 'claimed'`)
        ).rows;
        const running = (await sendJobs(message.id)).filter((j) => j.state === "active");
        return Number(claimed!.n) === 0 && running.length === 0;
      });
      const atPause = receivedPerDevice(w.pushIds, message.id).reduce((a, b) => a + b, 0);
      await sleep(2500);
      expect(receivedPerDevice(w.pushIds, message.id).reduce((a, b) => a + b, 0)).toBe(atPause);
      expect(atPause).toBeLessThan(40);
      expect((await statusOf(message.id)).status).toBe("paused");
      const live = (await sendJobs(message.id)).filter((j) => ["created", "retry", "active"].includes(j.state));
      expect(live).toEqual([]); // the paused message's jobs ended, none re-queued
      await changeMessageStatus(t.deps, w.sender, message.id, "resume");
      await until("the message to be sent", async () => (await statusOf(message.id)).status === "sent");
      const outcomes = await t.deps.db.execute(sql`
        select status, detail, count(*)::int as n from message_deliveries where message_id = ${message.id} group by 1, 2`);
      expect(receivedPerDevice(w.pushIds, message.id), JSON.stringify(outcomes.rows)).toEqual(w.pushIds.map(() => 1));
    } finally {
      ps.setDelay(0);
    }
  });

  it("a scheduled message is queued for its time (startAfter) and sent then, not before", async () => {
    const w = await world(3);
    const at = new Date(Date.now() + 33_000);
    const message = await getSentMessage(
      t.deps.db,
      w.sender,
      await createMessage(t.deps, w.sender, { ...content, scheduledAt: at.toISOString() }),
    );
    expect(message.status).toBe("scheduled");
    const queued = await sendJobs(message.id);
    expect(queued).toHaveLength(2);
    for (const job of queued) {
      expect(job.state).toBe("created");
      expect(Math.abs(new Date(job.startAfter).getTime() - at.getTime())).toBeLessThan(1000);
    }
    await sleep(3000);
    expect((await statusOf(message.id)).status).toBe("scheduled");
    expect(receivedPerDevice(w.pushIds, message.id)).toEqual([0, 0, 0]);
    await until("the scheduled message to be sent", async () => (await statusOf(message.id)).status === "sent", {
      timeout: SLOW_WORK,
    });
    const row = await statusOf(message.id);
    expect(new Date(row.started_at!).getTime()).toBeGreaterThanOrEqual(at.getTime() - 50);
    expect(receivedPerDevice(w.pushIds, message.id)).toEqual([1, 1, 1]);
  });

  it("messages.sweep queues a message nobody queued (sent while the engine was down)", async () => {
    const w = await world(3);
    // As if composed while no engine ran: frozen, sending, no job.
    const noEngine = { ...t.deps, jobs: { ...t.deps.jobs, send: () => Promise.reject(new Error("not started")) } };
    const message = { id: await createMessage(noEngine, w.sender, content) };
    expect(await sendJobs(message.id)).toEqual([]);
    await sleep(1500);
    expect((await statusOf(message.id)).status).toBe("sending");
    await t.deps.jobs.send("messages.sweep", {});
    await until("the message to be sent", async () => (await statusOf(message.id)).status === "sent");
    expect(receivedPerDevice(w.pushIds, message.id)).toEqual([1, 1, 1]);
  });
});
