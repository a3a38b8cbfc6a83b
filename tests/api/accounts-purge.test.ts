import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, createShop, createUser, grantPoints } from "../../src/server/db/factories.ts";
import { profiles } from "../../src/server/db/schema/index.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { openOwnDatabase } from "../setup/test-db.ts";
import { until } from "../setup/timing.ts";

/**
 * Issue 16, item 9: accounts inactive for 3 years are warned by e-mail, then purged 30 days later, by the job engine
 * (accounts.purge) with the clock injected through the job's data. On PostgreSQL a scratch database of its own, since
 * a sweep 3 years ahead would otherwise reach other files' accounts.
 */
let t: TestApp;
let dropScratch: (() => Promise<void>) | undefined;
beforeAll(async () => {
  const own = await openOwnDatabase("purge", 4);
  dropScratch = own.drop;
  const database = own.database;
  t = await createTestApp({ jobs: true, database, env: { JOBS_SUPERVISE_SECONDS: "1" } });
});
afterAll(async () => {
  await t?.close();
  await dropScratch?.();
});

const DAY = 86_400_000;

async function runAt(now: Date) {
  const boss = t.deps.jobs.boss;
  if (!boss) throw new Error("engine not started");
  const id = await t.deps.jobs.send("accounts.purge", { now: now.toISOString() });
  if (!id) throw new Error("not queued");
  const job = await until("accounts.purge to end", async () => {
    const [found] = await boss.findJobs("accounts.purge", { id });
    if (found?.state === "failed") throw new Error(`job failed: ${JSON.stringify(found.output)}`);
    return found?.state === "completed" ? found : null;
  });
  return job.output as { warned: number; purged: number };
}

const exists = async (id: string) =>
  (await t.deps.db.execute(sql`select 1 from "user" where id = ${id}`)).rows.length === 1;

describe("accounts.purge", () => {
  it("warns a 3-year-inactive account, purges it 30 days later; spares the active, owners and who came back", async () => {
    const start = new Date();
    const threeYears = new Date(start.getTime() + (3 * 365 + 2) * DAY);

    const sleeper = await createUser(t.deps, { withoutPassword: true });
    const returning = await createUser(t.deps, { withoutPassword: true });
    const active = await createUser(t.deps, { withoutPassword: true });
    await t.deps.db
      .update(profiles)
      .set({ lastSeen: new Date(threeYears.getTime() - 10 * DAY) })
      .where(eq(profiles.id, active.id));
    const owner = await createUser(t.deps, { withoutPassword: true });
    const shop = await createShop(t.deps, {
      ownerId: owner.id,
      rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
    });
    // The sleeper holds a pending reward: the purge gives its points back, like a deletion by hand.
    const { cardId } = await grantPoints(t.deps, { shopId: shop.id, userId: sleeper.id, points: 30 });
    const reward = await createReward(t.deps, { shopId: shop.id, title: "Café offert", cost: 10 });
    await redeem(t.deps.database, sleeper.id, { rewardId: reward.id, idempotencyKey: crypto.randomUUID() });

    // Today: nobody is 3 years idle.
    expect(await runAt(start)).toEqual({ warned: 0, purged: 0 });

    // 3 years on: the idle ones are warned (owner and the recently seen account are not).
    const warned = await runAt(threeYears);
    expect(warned.purged).toBe(0);
    const mails = t.mails.filter((m) => m.kind === "inactive-account").map((m) => m.to);
    expect(mails).toEqual(expect.arrayContaining([sleeper.email, returning.email]));
    expect(mails).not.toContain(active.email);
    expect(mails).not.toContain(owner.email);
    expect(t.lastMail(sleeper.email, "inactive-account").text).toMatch(/seront supprimés le/);

    // The returning one comes back a week later.
    await t.deps.db
      .update(profiles)
      .set({ lastSeen: new Date(threeYears.getTime() + 7 * DAY) })
      .where(eq(profiles.id, returning.id));

    // 29 days after the warning: still there.
    await runAt(new Date(threeYears.getTime() + 29 * DAY));
    expect(await exists(sleeper.id)).toBe(true);

    // 31 days after: the sleeper is purged; the one who came back, the active one and the owner stay.
    const purged = await runAt(new Date(threeYears.getTime() + 31 * DAY));
    expect(purged.purged).toBe(1);
    expect(await exists(sleeper.id)).toBe(false);
    expect(await exists(returning.id)).toBe(true);
    expect(await exists(active.id)).toBe(true);
    expect(await exists(owner.id)).toBe(true);
    const [card] = (
      await t.deps.db.execute<{ balance: number; user_id: string | null }>(
        sql`select balance, user_id from cards where id = ${cardId}`,
      )
    ).rows;
    expect(card).toEqual({ balance: 30, user_id: null });

    // The warning and the purge are in the audit log, by nobody (the job), on the account's bare id.
    const log = await t.deps.db.execute<{ action: string; actor_id: string | null }>(
      sql`select action, actor_id from audit_log where target = ${sleeper.id} order by created_at`,
    );
    expect(log.rows).toEqual([
      { action: "account.purge_warning", actor_id: null },
      { action: "account.purge", actor_id: null },
    ]);
  });
});
