import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createShop, recordVisit } from "../../src/server/db/factories.ts";
import type { ChannelDriver, ChannelOutcome } from "../../src/server/modules/messages/channels/driver.ts";
import { getSentMessage } from "../../src/server/modules/messages/sent.service.ts";
import { CHANNEL_DRIVERS } from "../../src/server/modules/messages/channels/drivers.ts";
import {
  DEFERRAL_LIMIT_HOURS,
  finishIfDone,
  INTERRUPTED,
  processMessageBatch,
  startSending,
} from "../../src/server/modules/messages/sending.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { sleep } from "../setup/timing.ts";

/**
 * The sending engine over channel drivers (channels.ts), with fake drivers standing for
 * e-mail and SMS: the audience frozen per registered channel, each row claimed right before
 * its driver and marked right after, deferred rows back to pending, a rate honoured by
 * concurrent batches, and the exactly-once rule (a claim past its lease is failed
 * "interrupted", never resent; a live slow delivery keeps its claim). The job engine that
 * runs these batches: messages-jobs.test.ts.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Call = { userId: string; at: number; status: string | undefined };

/** A driver recording what it is handed; `outcome` decides each delivery. */
function fakeDriver(
  channel: "email" | "sms",
  outcome: (userId: string, attempt: number) => Promise<ChannelOutcome> | ChannelOutcome = () => ({
    status: "delivered",
  }),
  extra: Partial<ChannelDriver> = {},
) {
  const calls: Call[] = [];
  let prepared = 0;
  const driver: ChannelDriver = {
    channel,
    concurrency: 4,
    async prepare() {
      prepared++;
      return { rendered: true };
    },
    async deliver(ctx, _message, delivery, prep) {
      expect(prep).toEqual({ rendered: true });
      const [row] = (
        await ctx.db.execute<{ status: string }>(sql`select status from message_deliveries where id = ${delivery.id}`)
      ).rows;
      calls.push({ userId: delivery.user_id, at: Date.now(), status: row?.status });
      return outcome(delivery.user_id, calls.filter((c) => c.userId === delivery.user_id).length);
    },
    ...extra,
  };
  return { driver, calls, prepared: () => prepared };
}

/** A shop and `n` customers who accepted e-mail and SMS (verified address, a number). */
async function world(n: number) {
  const owner = await t.createUser({ withoutPassword: true });
  const shop = await createShop(t.deps, { ownerId: owner.id });
  const users: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = await t.createUser({ withoutPassword: true });
    await recordVisit(t.deps, { shopId: shop.id, userId: u.id, at: new Date() });
    await t.deps.db.execute(sql`
      insert into consents (user_id, channel, granted, wording) values
        (${u.id}, 'email', true, 'test'), (${u.id}, 'sms', true, 'test')`);
    await t.deps.db.execute(
      sql`update profiles set phone = ${`+3361234${String(i).padStart(4, "0")}`} where id = ${u.id}`,
    );
    users.push(u.id);
  }
  return { shopId: shop.id, ownerId: owner.id, users };
}

async function message(w: { shopId: string; ownerId: string }, flags: { email?: boolean; sms?: boolean } = {}) {
  const [row] = (
    await t.deps.db.execute<{ id: string }>(sql`
      insert into messages (shop_id, author_id, audience, segment, title, body, with_push, with_email, with_sms, status)
      values (${w.shopId}, ${w.ownerId}, 'customers', '{"kind":"all"}'::jsonb, 'Titre', 'Texte', false,
        ${flags.email ?? false}, ${flags.sms ?? false}, 'scheduled')
      returning id`)
  ).rows;
  return row!.id;
}

async function statuses(messageId: string, channel: string) {
  const rows = await t.deps.db.execute<{ user_id: string; status: string; detail: string | null }>(sql`
    select user_id, status, detail from message_deliveries where message_id = ${messageId} and channel = ${channel}`);
  return rows.rows;
}

async function drain(messageId: string, drivers: ChannelDriver[], leaseSeconds?: number) {
  for (let i = 0; i < 100; i++) {
    const r = await processMessageBatch(t.deps, messageId, { drivers, leaseSeconds });
    if (r.remaining === 0) break;
    await sleep(100);
  }
  await finishIfDone(t.deps.db, messageId);
}

const owner = (w: { shopId: string; ownerId: string }) =>
  ({ kind: "shop", access: { shopId: w.shopId, userId: w.ownerId, role: "owner", level: "owner" } }) as const;

describe("the sending engine over channel drivers", () => {
  it("registers push in drivers.ts", () => {
    expect(CHANNEL_DRIVERS.map((d) => d.channel)).toContain("push");
  });

  it("freezes a channel's deliveries only when the message asks for it and its driver is registered", async () => {
    const w = await world(3);
    const email = fakeDriver("email");
    const both = await message(w, { email: true, sms: true });
    await startSending(t.deps.db, both, [email.driver]);
    expect(await statuses(both, "email")).toHaveLength(3);
    expect(await statuses(both, "sms")).toHaveLength(0); // no SMS driver registered here
    const unregistered = await message(w, { email: true });
    await startSending(t.deps.db, unregistered, []);
    expect(await statuses(unregistered, "email")).toHaveLength(0);
    const off = await message(w, { email: false });
    await startSending(t.deps.db, off, [email.driver]);
    expect(await statuses(off, "email")).toHaveLength(0);
    expect(await statuses(off, "inapp")).toHaveLength(3);
  });

  it("hands each row to its driver once, claimed, after prepare; concurrent batches never share a row", async () => {
    const w = await world(10);
    const email = fakeDriver("email");
    const id = await message(w, { email: true });
    await startSending(t.deps.db, id, [email.driver]);
    await Promise.all(
      Array.from({ length: 4 }, () => processMessageBatch(t.deps, id, { drivers: [email.driver], limit: 13 })),
    );
    await drain(id, [email.driver]);
    expect(email.calls.map((c) => c.userId).sort()).toEqual([...w.users].sort());
    expect(email.calls.every((c) => c.status === "claimed")).toBe(true);
    expect(email.prepared()).toBeGreaterThan(0);
    expect((await statuses(id, "email")).every((r) => r.status === "delivered")).toBe(true);
    const sent = await getSentMessage(t.deps.db, owner(w), id);
    expect(sent).toMatchObject({ status: "sent", progress: 100, counts: { delivered: 10, failed: 0 } });
  });

  it("a deferred row waits for its time, then is delivered once; a driver that throws fails its row for good", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const w = await world(2);
    const [slow, broken] = w.users;
    // Deferred for a minute: "not before its time" holds however slow the machine; then its time is brought
    // forward in the table, as if the minute had passed.
    const sms = fakeDriver("sms", (userId, attempt) => {
      if (userId === broken) throw new Error("gateway exploded");
      return attempt === 1 ? { status: "deferred", notBefore: new Date(Date.now() + 60_000) } : { status: "delivered" };
    });
    const id = await message(w, { sms: true });
    await startSending(t.deps.db, id, [sms.driver]);
    const first = await processMessageBatch(t.deps, id, { drivers: [sms.driver] });
    expect(first).toMatchObject({ deferred: 1, failed: 1, remaining: 1 });
    const early = await processMessageBatch(t.deps, id, { drivers: [sms.driver] });
    expect(early.delivered).toBe(0); // not before its time
    await t.deps.db.execute(sql`
      update message_deliveries set not_before = now() - interval '1 second'
      where message_id = ${id} and channel = 'sms' and status = 'pending'`);
    await drain(id, [sms.driver]);
    expect(sms.calls.filter((c) => c.userId === slow)).toHaveLength(2);
    expect(sms.calls.filter((c) => c.userId === broken)).toHaveLength(1);
    const rows = await statuses(id, "sms");
    expect(rows.find((r) => r.user_id === slow)?.status).toBe("delivered");
    expect(rows.find((r) => r.user_id === broken)).toMatchObject({
      status: "failed",
      detail: "error: gateway exploded",
    });
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("message sms driver threw"));
  });

  it(`a row deferred again and again is tried for ${DEFERRAL_LIMIT_HOURS} hours from the send's start, then failed, never retried for ever`, async () => {
    const w = await world(1);
    const sms = fakeDriver("sms", () => ({ status: "deferred", notBefore: new Date(Date.now() + 60_000) }));
    const id = await message(w, { sms: true });
    await startSending(t.deps.db, id, [sms.driver]);
    const [start] = (
      await t.deps.db.execute<{ started_at: Date }>(sql`select started_at from messages where id = ${id}`)
    ).rows;
    const startedAt = new Date(start!.started_at).getTime();
    // An hour before the limit: deferred, back to pending.
    const within = await processMessageBatch(t.deps, id, {
      drivers: [sms.driver],
      now: () => new Date(startedAt + (DEFERRAL_LIMIT_HOURS - 1) * 3_600_000),
    });
    expect(within).toMatchObject({ deferred: 1, failed: 0, remaining: 1 });
    await t.deps.db.execute(sql`
      update message_deliveries set not_before = now() - interval '1 second' where message_id = ${id} and channel = 'sms'`);
    // Past it: the same deferral fails the row, and nothing is left to try.
    const past = await processMessageBatch(t.deps, id, {
      drivers: [sms.driver],
      now: () => new Date(startedAt + (DEFERRAL_LIMIT_HOURS + 1) * 3_600_000),
    });
    expect(past).toMatchObject({ deferred: 0, failed: 1, remaining: 0 });
    expect(await statuses(id, "sms")).toEqual([
      { user_id: w.users[0], status: "failed", detail: `still failing after ${DEFERRAL_LIMIT_HOURS} hours of retries` },
    ]);
    expect(sms.calls).toHaveLength(2);
  });

  it("ratePerSecond holds across concurrent batches: claims are paced in the database", async () => {
    const w = await world(12);
    // sms: the fake of this test file only (channel_pacing is per channel).
    const sms = fakeDriver("sms", () => ({ status: "delivered" }), { ratePerSecond: 4, concurrency: 8 });
    const id = await message(w, { sms: true });
    await startSending(t.deps.db, id, [sms.driver]);
    const started = Date.now();
    await Promise.all([
      processMessageBatch(t.deps, id, { drivers: [sms.driver] }),
      processMessageBatch(t.deps, id, { drivers: [sms.driver] }),
    ]);
    await drain(id, [sms.driver]);
    expect(sms.calls).toHaveLength(12);
    // 12 at 4 a second, in bursts of at most a second's worth: the k-th claim's window opens no sooner than
    // (k - 3) / 4 s after the start (the last one ≥ 2 s in). Each delivery comes after its claim, so it can only be
    // later than that on a busy machine, never sooner: a lower bound per delivery (100 ms for the database's clock).
    const at = sms.calls.map((c) => c.at - started).sort((a, b) => a - b);
    for (const [k, ms] of at.entries()) expect(ms).toBeGreaterThanOrEqual(((k - 3) * 1000) / 4 - 100);
    expect(at.at(-1)!).toBeGreaterThanOrEqual(1900);
  });

  it("a claim past its lease is failed 'interrupted' and never resent; a live slow delivery keeps its claim", async () => {
    const w = await world(3);
    const [dead, slow] = w.users;
    const email = fakeDriver("email", async (userId) => {
      if (userId === slow) await sleep(3000);
      return { status: "delivered" };
    });
    const id = await message(w, { email: true });
    await startSending(t.deps.db, id, [email.driver]);
    // A process claimed this row 10 s ago and died (its driver may or may not have sent).
    await t.deps.db.execute(sql`
      update message_deliveries set status = 'claimed', claimed_at = now() - interval '10 seconds'
      where message_id = ${id} and channel = 'email' and user_id = ${dead}`);
    const lease = 2;
    const working = processMessageBatch(t.deps, id, { drivers: [email.driver], leaseSeconds: lease });
    // Another process looks after the lease has run out on the slow delivery's first claim time.
    await sleep(2500);
    const other = await processMessageBatch(t.deps, id, { drivers: [email.driver], leaseSeconds: lease });
    expect(other.interrupted).toBe(0); // the slow one's claim was renewed by its process's heartbeat
    const first = await working;
    expect(first.interrupted).toBe(1);
    await drain(id, [email.driver], lease);
    expect(email.calls.map((c) => c.userId).sort()).toEqual(w.users.filter((u) => u !== dead).sort());
    const rows = await statuses(id, "email");
    expect(rows.find((r) => r.user_id === dead)).toMatchObject({ status: "failed", detail: INTERRUPTED });
    expect(rows.find((r) => r.user_id === slow)?.status).toBe("delivered");
    const sent = await getSentMessage(t.deps.db, owner(w), id);
    expect(sent).toMatchObject({ status: "sent", counts: { failed: 1 } });
  });
});
