import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, recordVisit } from "../../src/server/db/factories.ts";
import { runAutomations } from "../../src/server/modules/messages/automation-run.service.ts";
import { measureAutomations } from "../../src/server/modules/messages/automations.service.ts";
import { recordPreference } from "../../src/server/modules/messages/consent.ts";
import type { TestApp } from "../setup/api.ts";
import { deliverAll, scratchTestApp } from "./automations-helpers.ts";
import { shopWithOwner } from "./shops-helpers.ts";
import { openAfter } from "../fixtures/send-window.ts";

/**
 * Issue 27 (ADR 0046), acceptance row 1 in one process, on PGlite and on PostgreSQL (a scratch database of its own
 * there: runs with the clock moved weeks ahead decide every shop's automations). The clock is injected: visits are
 * written at chosen instants (recordVisit) and the automations are run at chosen instants (runAutomations' `now`).
 * tests/api/automations-processes.test.ts shows the same across two server processes and the job engine.
 */
let t: TestApp;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ t, close } = await scratchTestApp("auto"));
});
afterAll(async () => {
  await close?.();
});

const DAY = 86_400_000;

async function occasionsOf(shopId: string) {
  return (
    await t.deps.db.execute<{ user_id: string; occasion: string; holdout: boolean; message_id: string | null }>(sql`
      select user_id, occasion, holdout, message_id from automation_occasions where shop_id = ${shopId} order by user_id, occasion`)
  ).rows;
}

/** In-app win-backs each person received: user id → count. */
async function inboxCounts(shopId: string) {
  const rows = await t.deps.db.execute<{ user_id: string; n: number }>(sql`
    select d.user_id, count(*)::int as n from message_deliveries d join messages m on m.id = d.message_id
    where m.shop_id = ${shopId} and m.kind = 'automation' and d.channel = 'inapp' and d.status = 'delivered'
    group by d.user_id`);
  return new Map(rows.rows.map((r) => [r.user_id, Number(r.n)]));
}

describe("issue 27 row 1: a win-back once per absence, a holdout, consent", () => {
  it("a shopper who stops coming gets exactly one win-back per absence; holdout members get nothing and are counted; the opted-out get nothing", async () => {
    const { shop, owner } = await shopWithOwner(t, {
      rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
    });
    const start = new Date(Date.now() - DAY);
    const people = [];
    for (let i = 0; i < 40; i++) {
      const user = await t.createUser({ withoutPassword: true });
      await recordVisit(t.deps, { shopId: shop.id, userId: user.id, at: start, delta: 10 });
      people.push(user.id);
    }
    const optedOut = people[0]!;
    await recordPreference(t.deps.db, {
      userId: optedOut,
      shopId: shop.id,
      channel: "inapp",
      granted: false,
      wording: "Je ne veux plus de messages de cette boutique.",
    });

    // The owner turns win-back on: 30 days, 25 % held out.
    const base = `/api/backoffice/shops/${shop.id}/automations`;
    const settings = {
      enabled: true,
      days: 30,
      holdoutPercent: 25,
      title: "Vous nous manquez !",
      body: "Revenez nous voir.",
    };
    expect((await owner.client.request(`${base}/win_back`, { method: "PUT", json: settings })).status).toBe(200);

    // Today and a week on: nobody has been away 30 days.
    expect((await runAutomations(t.deps, new Date())).sent).toBe(0);
    expect((await runAutomations(t.deps, openAfter(start, 7))).sent).toBe(0);
    expect(await occasionsOf(shop.id)).toEqual([]);

    // The clock moves 31 days on: everyone but the opted-out has an occasion, in one group or the other.
    const later = openAfter(start, 31);
    const first = await runAutomations(t.deps, later);
    const occasions = await occasionsOf(shop.id);
    expect(occasions.map((o) => o.user_id).sort()).toEqual(people.filter((p) => p !== optedOut).sort());
    const held = occasions.filter((o) => o.holdout);
    const sent = occasions.filter((o) => !o.holdout);
    expect(held.length).toBeGreaterThan(0);
    expect(sent.length).toBeGreaterThan(held.length);
    expect(first).toMatchObject({ sent: sent.length, heldOut: held.length, messages: 1 });
    expect(held.every((o) => o.message_id === null)).toBe(true);
    expect(new Set(sent.map((o) => o.message_id)).size).toBe(1);

    // Run again, at once, twice at the same moment and an hour later: the same absence is never decided twice.
    await Promise.all([runAutomations(t.deps, later), runAutomations(t.deps, later)]);
    await runAutomations(t.deps, new Date(later.getTime() + 3_600_000));
    expect(await occasionsOf(shop.id)).toEqual(occasions);

    await deliverAll(t, shop.id);
    const inbox = await inboxCounts(shop.id);
    for (const o of sent) expect(inbox.get(o.user_id)).toBe(1);
    for (const o of held) expect(inbox.get(o.user_id)).toBeUndefined();
    expect(inbox.get(optedOut)).toBeUndefined();
    // What the shopper reads in their inbox.
    const message = await t.deps.db.execute<{ title: string; body: string; link_url: string }>(
      sql`select title, body, link_url from messages where id = ${sent[0]!.message_id}`,
    );
    expect(message.rows[0]).toEqual({
      title: "Vous nous manquez !",
      body: "Revenez nous voir.",
      link_url: `/shop/${shop.slug}`,
    });

    // One of each group comes back two days later; the one who got it is away again 31 days after: a new absence,
    // a new win-back (or holdout draw) — one more occasion for them, none for anyone else.
    const back = sent[0]!.user_id;
    const heldBack = held[0]!.user_id;
    const returnAt = new Date(later.getTime() + 2 * DAY);
    await recordVisit(t.deps, { shopId: shop.id, userId: back, at: returnAt, delta: 10 });
    await recordVisit(t.deps, { shopId: shop.id, userId: heldBack, at: returnAt, delta: 10 });
    const lastRun = openAfter(returnAt, 31);
    await runAutomations(t.deps, lastRun);
    const after = await occasionsOf(shop.id);
    expect(after.length).toBe(occasions.length + 2);
    const mine = after.filter((o) => o.user_id === back);
    expect(mine.map((o) => o.occasion)).toEqual([
      `absence:${start.toISOString().replace("Z", "000Z")}`,
      `absence:${returnAt.toISOString().replace("Z", "000Z")}`,
    ]);

    // The owner's results (once the job automations.measure has measured what followed): both groups counted, one
    // return in each, the holdout's share in the verdict's arithmetic.
    expect((await measureAutomations(t.deps.db, lastRun)).occasions).toBe(after.length);
    const page = await (await owner.client.request(`${base}?days=90`)).json();
    const winBack = page.automations.find((a: { kind: string }) => a.kind === "win_back");
    expect(winBack).toMatchObject({ enabled: true, days: 30, holdoutPercent: 25 });
    const heldAll = after.filter((o) => o.holdout).length;
    expect(winBack.results.holdout.people).toBe(heldAll);
    expect(winBack.results.sent.people).toBe(after.length - heldAll);
    expect(winBack.results.sent.returned).toBe(1);
    expect(winBack.results.holdout.returned).toBe(1);
    expect(winBack.results.sent.points).toBe(10);
    expect(winBack.results.sent.reached).toBe(sent.length);
    expect(winBack.results.verdict).toBe("Trop tôt pour conclure");
    expect(winBack.results.detail).toMatch(/^Il faut encore environ \d+ clients concernés pour conclure\.$/);
  });

  it("a holdout of 0 needs the owner's word; another shop's automations are not found", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const other = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}/automations`;
    const settings = { enabled: false, days: 30, holdoutPercent: 0, title: "Vous nous manquez !", body: "Revenez." };
    const refused = await owner.client.request(`${base}/win_back`, { method: "PUT", json: settings });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields.holdoutPercent).toMatch(/^Sans groupe témoin, impossible de savoir/);
    const confirmed = { ...settings, noHoldoutConfirmed: true };
    expect((await owner.client.request(`${base}/win_back`, { method: "PUT", json: confirmed })).status).toBe(200);
    expect((await other.owner.client.request(`${base}/win_back`, { method: "PUT", json: confirmed })).status).toBe(404);
    const page = await (await owner.client.request(base)).json();
    expect(page.automations.map((a: { kind: string }) => a.kind)).toEqual([
      "welcome",
      "win_back",
      "reward_waiting",
      "birthday",
      "almost_full",
    ]);
    expect(page.automations[1]).toMatchObject({ holdoutPercent: 0, enabled: false });
    expect(page.automations[1].results.detail).toBe("Sans groupe témoin, aucune conclusion n'est possible.");
  });

  it("welcome, a waiting reward and « plus qu'un passage » decide their own occasions, once each", async () => {
    const { shop, owner } = await shopWithOwner(t, {
      rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
    });
    await createReward(t.deps, { shopId: shop.id, title: "Café offert", cost: 30 });
    const base = `/api/backoffice/shops/${shop.id}/automations`;
    const on = (days?: number) => ({
      enabled: true,
      holdoutPercent: 0,
      noHoldoutConfirmed: true,
      title: "Titre",
      body: "Texte",
      ...(days ? { days } : {}),
    });
    for (const kind of ["welcome", "reward_waiting", "almost_full"]) {
      const res = await owner.client.request(`${base}/${kind}`, {
        method: "PUT",
        json: on(kind === "reward_waiting" ? 14 : undefined),
      });
      expect(res.status).toBe(200);
    }
    const now = openAfter(new Date(), 0);
    const newcomer = await t.createUser({ withoutPassword: true });
    const almost = await t.createUser({ withoutPassword: true });
    const waiting = await t.createUser({ withoutPassword: true });
    await recordVisit(t.deps, {
      shopId: shop.id,
      userId: newcomer.id,
      at: new Date(now.getTime() - 3_600_000),
      delta: 10,
    });
    await recordVisit(t.deps, {
      shopId: shop.id,
      userId: almost.id,
      at: new Date(now.getTime() - 20 * DAY),
      delta: 10,
    });
    await recordVisit(t.deps, {
      shopId: shop.id,
      userId: almost.id,
      at: new Date(now.getTime() - 3_600_000),
      delta: 10,
    });
    for (const days of [40, 30, 20]) {
      await recordVisit(t.deps, {
        shopId: shop.id,
        userId: waiting.id,
        at: new Date(now.getTime() - days * DAY),
        delta: 10,
      });
    }
    await runAutomations(t.deps, now);
    await runAutomations(t.deps, new Date(now.getTime() + 600_000));
    const rows = await t.deps.db.execute<{ kind: string; user_id: string; occasion: string }>(sql`
      select a.kind, o.user_id, o.occasion from automation_occasions o join automations a on a.id = o.automation_id
      where o.shop_id = ${shop.id} order by a.kind, o.user_id`);
    const got = rows.rows.map(
      (r) =>
        `${r.kind} ${r.user_id === newcomer.id ? "newcomer" : r.user_id === almost.id ? "almost" : "waiting"} ${r.occasion.split(":")[0]}`,
    );
    // The newcomer's first visit (welcome; the almost-full one's first visit was before the welcome was turned on,
    // and its card too); 20 of 30 points one visit away; 30 points waiting 20 days.
    expect(got.sort()).toEqual([
      "almost_full almost almost",
      "reward_waiting waiting reward",
      "welcome newcomer welcome",
    ]);
  });
});
