import { randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createReward, createShop, createUser, grantPoints } from "../../src/server/db/factories.ts";
import { cards, ledgerEntries, redemptions, scanClaims } from "../../src/server/db/schema/index.ts";
import { DEAD_LETTER_QUEUE } from "../../src/server/jobs/jobs.ts";
import { KEEP_SPENT_CLAIMS_SECONDS } from "../../src/server/modules/cards/scan-claims.service.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { sleep, until } from "../setup/timing.ts";
import { openOwnDatabase } from "../setup/test-db.ts";
import { sendProbe, testProbe } from "../setup/test-probe.ts";

/**
 * The job engine in one process, on the database of this pass (the embedded PGlite, or a PostgreSQL
 * database of its own so its sweeps touch no other file's rows): queues, schedules, the dead-letter
 * queue, and the work that moved onto it (redemption expiry, the clean-up of spent scan claims).
 * Two processes on one PostgreSQL: jobs-processes.test.ts.
 */
let t: TestApp;
let dropScratch: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const own = await openOwnDatabase("jobs", 4);
  dropScratch = own.drop;
  const database = own.database;
  t = await createTestApp({ jobs: true, database, env: { JOBS_SUPERVISE_SECONDS: "1" }, extraJobs: [testProbe] });
});
afterAll(async () => {
  await t?.close();
  await dropScratch?.();
});

const boss = () => {
  const b = t.deps.jobs.boss;
  if (!b) throw new Error("engine not started");
  return b;
};

describe("the job engine", () => {
  it("starts with its queues (each with the dead-letter queue), retries with back-off, and cron schedules", async () => {
    const queues = await boss().getQueues();
    const byName = new Map(queues.map((q) => [q.name, q]));
    for (const name of [
      "redemptions.expire",
      "scan-claims.cleanup",
      "contests.draw",
      "accounts.purge",
      "messages.send",
      "messages.sweep",
      "test.probe",
    ]) {
      expect(byName.get(name)?.deadLetter).toBe(DEAD_LETTER_QUEUE);
    }
    expect(byName.has(DEAD_LETTER_QUEUE)).toBe(true);
    expect(byName.get("redemptions.expire")).toMatchObject({ policy: "stately", retryBackoff: true });
    const schedules = await boss().getSchedules();
    expect(schedules.map((s) => [s.name, s.cron]).sort()).toEqual([
      ["accounts.purge", "17 4 * * *"],
      ["automations.measure", "2-59/5 * * * *"],
      ["automations.run", "*/5 * * * *"],
      ["backup.nightly", "30 3 * * *"],
      ["contests.draw", "* * * * *"],
      ["daily-stats.fold", "* * * * *"],
      ["messages.sweep", "* * * * *"],
      ["redemptions.expire", "* * * * *"],
      ["referrals.release", "*/5 * * * *"],
      ["retention.fold", "41 * * * *"],
      ["reviews.request", "*/5 * * * *"],
      ["scan-claims.cleanup", "17 * * * *"],
      ["till.zettle-poll", "23 * * * *"],
      ["wallet.sweep", "* * * * *"],
      ["webhooks.sweep", "* * * * *"],
    ]);
  });

  it("runs a job sent to it, once", async () => {
    const id = await sendProbe(t.deps.jobs, { label: randomUUID() });
    expect(id).toBeTruthy();
    const job = await until("the probe to complete", async () => {
      const [found] = await boss().findJobs("test.probe", { id: id! });
      return found?.state === "completed" ? found : null;
    });
    expect(job.retryCount).toBe(0);
    expect(job.output).toEqual({ pid: process.pid });
  });

  it("a job a schedule sends (its data null) runs: automations.run and automations.measure read their clock from it", async () => {
    // pg-boss's cron sends a schedule's data, null when it has none; the handlers read `data.now`.
    for (const name of ["automations.run", "automations.measure"]) {
      const id = await boss().send(name, null as unknown as object);
      expect(id).toBeTruthy();
      const job = await until(`${name} to end`, async () => {
        const [found] = await boss().findJobs(name, { id: id! });
        return found?.state === "completed" || found?.state === "failed" || found?.state === "retry" ? found : null;
      });
      expect(job.state, JSON.stringify(job.output)).toBe("completed");
    }
  });

  it("retries a failing job, then moves it to the dead-letter queue and logs it as an error", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const label = randomUUID();
    const id = await sendProbe(t.deps.jobs, { label, fail: true }, { retryLimit: 2, retryDelay: 0 });
    const [dead] = await until("the job to reach the dead-letter queue", async () => {
      const jobs = await boss().findJobs(DEAD_LETTER_QUEUE, { data: { label } });
      return jobs.length > 0 ? jobs : null;
    });
    expect(dead).toMatchObject({ sourceName: "test.probe", sourceId: id });
    const [source] = await boss().findJobs("test.probe", { id: id! });
    expect(source).toMatchObject({ state: "failed", retryCount: 2 });
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining("jobs: test.probe failed for good, moved to dead-letter"),
    );
    expect(errors).toHaveBeenCalledTimes(1);
  });

  it("refuses to send a job when the engine is not started (tests without jobs, a wrong start)", async () => {
    const other = await createTestApp();
    try {
      await expect(other.deps.jobs.send("redemptions.expire", {})).rejects.toThrow(/not started/);
    } finally {
      await other.close();
    }
  });
});

describe("work moved onto the engine", () => {
  it("a due redemption that nobody reads gives its points back through the redemptions.expire job, once", async () => {
    const deps = t.deps;
    const owner = await createUser(deps, { withoutPassword: true });
    const shop = await createShop(deps, { ownerId: owner.id, rules: { mode: "points" } });
    const reward = await createReward(deps, { shopId: shop.id, cost: 10 });
    const shopper = await createUser(deps, { withoutPassword: true });
    const { cardId } = await grantPoints(deps, { shopId: shop.id, userId: shopper.id, points: 10 });
    const { redemption } = await redeem(deps.database, shopper.id, {
      rewardId: reward.id,
      idempotencyKey: randomUUID(),
    });
    await deps.db
      .update(redemptions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(redemptions.id, redemption.id));

    // The engine, not a read: nothing here reads the redemption through the service until it has expired.
    await t.deps.jobs.send("redemptions.expire", {});
    await until("the redemption to expire", async () => {
      const [row] = await deps.db
        .select({ status: redemptions.status })
        .from(redemptions)
        .where(eq(redemptions.id, redemption.id));
      return row?.status === "expired";
    });
    const refunds = await deps.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.refId, redemption.id), eq(ledgerEntries.kind, "refund")));
    expect(refunds).toHaveLength(1);
    const [card] = await deps.db.select({ balance: cards.balance }).from(cards).where(eq(cards.id, cardId));
    expect(card!.balance).toBe(10);
    // The job is marked completed just after its work commits (the row can be seen expired a moment before); on a
    // shared PostgreSQL database another file's sweep may have been the one, with others' redemptions besides.
    await until("a completed redemptions.expire job that expired it", async () => {
      const done = await boss().findJobs<object>("redemptions.expire");
      return done.some((j) => j.state === "completed" && ((j.output as { expired?: number })?.expired ?? 0) >= 1);
    });

    // Another sweep finds nothing left to give back.
    await t.deps.jobs.send("redemptions.expire", {});
    await sleep(3000);
    expect(
      await deps.db
        .select()
        .from(ledgerEntries)
        .where(and(eq(ledgerEntries.refId, redemption.id), eq(ledgerEntries.kind, "refund"))),
    ).toHaveLength(1);
  });

  it("scan-claims.cleanup deletes spent claims older than a claim can live, and keeps the others", async () => {
    const deps = t.deps;
    const owner = await createUser(deps, { withoutPassword: true });
    const shop = await createShop(deps, { ownerId: owner.id });
    const old = `old-${randomUUID()}`;
    const recent = `recent-${randomUUID()}`;
    await deps.db.insert(scanClaims).values([
      {
        nonce: old,
        shopId: shop.id,
        idempotencyKey: randomUUID(),
        usedAt: new Date(Date.now() - (KEEP_SPENT_CLAIMS_SECONDS + 60) * 1000),
      },
      { nonce: recent, shopId: shop.id, idempotencyKey: randomUUID(), usedAt: new Date(Date.now() - 25 * 60 * 1000) },
    ]);
    const id = await t.deps.jobs.send("scan-claims.cleanup", {});
    await until("the clean-up to complete", async () => {
      const [job] = await boss().findJobs("scan-claims.cleanup", { id: id! });
      return job?.state === "completed";
    });
    const left = await deps.db
      .select({ nonce: scanClaims.nonce })
      .from(scanClaims)
      .where(eq(scanClaims.shopId, shop.id));
    expect(left.map((r) => r.nonce)).toEqual([recent]);
  });
});
