import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, grantPoints } from "../../src/server/db/factories.ts";
import type { Db } from "../../src/server/db/client.ts";
import { cards, profiles, shops } from "../../src/server/db/schema/index.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { newKey, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 11. What the back-office reads instead of counting the shop's rows, kept by triggers in the writes'
 * transactions (src/server/db/functions/daily-stats.sql, customer-text.sql): the dashboard's days, the devices'
 * numbers, the customers' name and search text. Each must equal a recount from the rows after a mix of writes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

type Day = { day: string; new_customers: number; scans: number; refused: number; flagged: number; points: number; redemptions: number };

/** The dashboard's old query: every day of the shop counted from its rows, in its time zone. */
async function recount(db: Db, shopId: string): Promise<Day[]> {
  const rows = await db.execute<Day>(sql`
    with tz as (select timezone from shops where id = ${shopId}), x as (
      select (created_at at time zone (select timezone from tz))::date as day, 1 as nc, 0 as sc, 0 as rf, 0 as fl, 0 as pt, 0 as rd
        from cards where shop_id = ${shopId}
      union all
      select (created_at at time zone (select timezone from tz))::date, 0, (outcome = 'accepted')::int,
             (outcome <> 'accepted')::int, (cardinality(flags) > 0)::int, 0, 0
        from scans where shop_id = ${shopId}
      union all
      select (created_at at time zone (select timezone from tz))::date, 0, 0, 0, 0,
             case when kind in ('scan', 'double_points', 'bonus') then delta else 0 end, (kind = 'redemption')::int
        from ledger_entries where shop_id = ${shopId}
    )
    select to_char(day, 'YYYY-MM-DD') as day, sum(nc)::int as new_customers, sum(sc)::int as scans, sum(rf)::int as refused,
           sum(fl)::int as flagged, sum(pt)::int as points, sum(rd)::int as redemptions
    from x group by day
    having sum(nc) + sum(sc) + sum(rf) + sum(fl) + sum(pt) + sum(rd) <> 0
    order by day`);
  return rows.rows;
}

async function rollup(db: Db, shopId: string): Promise<Day[]> {
  const rows = await db.execute<Day>(sql`
    select to_char(day, 'YYYY-MM-DD') as day, sum(new_customers)::int as new_customers, sum(scans)::int as scans,
           sum(refused)::int as refused, sum(flagged)::int as flagged, sum(points)::int as points,
           sum(redemptions)::int as redemptions
    from (
      select day, new_customers, scans, refused, flagged, points, redemptions from shop_daily_stats where shop_id = ${shopId}
      union all
      select day, new_customers, scans, refused, flagged, points, redemptions from shop_daily_deltas where shop_id = ${shopId}
    ) x
    group by day
    having sum(new_customers) + sum(scans) + sum(refused) + sum(flagged) + sum(points) + sum(redemptions) <> 0
    order by day`);
  return rows.rows;
}

describe("the back-office's stored figures", () => {
  it("the dashboard's daily rollup equals a recount after scans, refusals, adjustments, redemptions, refunds, old rows and a new time zone", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 3 } });
    const base = `/api/backoffice/shops/${shop.id}`;
    const shoppers = await Promise.all([signedIn(t), signedIn(t), signedIn(t)]);
    for (const s of shoppers) for (let i = 0; i < 4; i++) await scan(s.client, t.deps.db, shop.id, { deviceId: "phone-aaa" }); // the 4th: daily cap
    await scan(shoppers[0]!.client, t.deps.db, shop.id, { deviceId: "phone-bbb" });
    const [card] = await t.deps.db.select().from(cards).where(eq(cards.userId, shoppers[1]!.user.id));
    const adjust = await owner.client.request(`${base}/adjust`, {
      json: { cardId: card!.id, delta: -4, reason: "Erreur", idempotencyKey: newKey() },
    });
    expect(adjust.status).toBe(201);
    await grantPoints(t.deps, { shopId: shop.id, userId: shoppers[2]!.user.id, points: 50 });
    const reward = await createReward(t.deps, { shopId: shop.id, cost: 15 });
    for (const s of shoppers.slice(0, 2)) {
      const res = await s.client.request(`/api/rewards/${reward.slug}/redeem`, { json: { idempotencyKey: newKey() } });
      expect(res.status).toBe(201);
    }
    // One redemption cancelled: its refund is neither points earned nor a redemption.
    const [pending] = (await t.deps.db.execute<{ id: string; user_id: string }>(sql`
      select id, user_id from redemptions where shop_id = ${shop.id} limit 1`)).rows;
    await t.deps.db.execute(sql`
      select fidele_redemption_close(${pending!.id}, 'cancelled', ${pending!.user_id}, null, null, ${pending!.user_id}, 'Annulée')`);
    // Rows written in bulk and in the past (an import, an old card): one statement, several days.
    const late = await signedIn(t);
    await t.deps.db.insert(cards).values({ shopId: shop.id, userId: late.user.id, createdAt: new Date(Date.now() - 40 * 86_400_000) });
    await t.deps.db.execute(sql`
      insert into scans (shop_id, user_id, actor_id, scan_uid, outcome, method, delta, flags, device_id, idempotency_key, response, created_at)
      select ${shop.id}, ${late.user.id}, ${late.user.id}, 'import', case when g % 2 = 0 then 'cooldown' else 'accepted' end,
             'rotating', 0, case when g % 3 = 0 then array['shared_device'] else '{}'::text[] end, 'phone-ccc', 'import-' || g,
             '{}'::jsonb, now() - g * interval '1 day'
      from generate_series(1, 10) g`);

    const expected = await recount(t.deps.db, shop.id);
    expect(expected.length).toBeGreaterThan(5);
    expect(await rollup(t.deps.db, shop.id)).toEqual(expected);
    // The fold (job daily-stats.fold) moves the deltas into the days; the figures do not change.
    await t.deps.db.execute(sql`select fidele_daily_stats_fold()`);
    const left = await t.deps.db.execute<{ n: number }>(sql`select count(*)::int as n from shop_daily_deltas where shop_id = ${shop.id}`);
    expect(left.rows[0]!.n).toBe(0);
    expect(await rollup(t.deps.db, shop.id)).toEqual(expected);
    const today = expected.at(-1)!;
    expect(today).toMatchObject({ new_customers: 3, scans: 9, refused: 4, points: 9 * 10 + 50, redemptions: 2 });

    // Writes after the fold go to the deltas again; the dashboard reads both: its year is the recount's.
    await scan(late.client, t.deps.db, shop.id, { deviceId: "phone-aaa" });
    expected.splice(0, expected.length, ...(await recount(t.deps.db, shop.id)));
    const dash = await (await owner.client.request(`${base}/dashboard?days=365`)).json();
    const inYear = expected.filter((d) => d.day >= dash.from);
    const sum = (k: keyof Day) => inYear.reduce((n, d) => n + Number(d[k]), 0);
    expect(dash.totals).toMatchObject({
      newCustomers: sum("new_customers"),
      scans: sum("scans"),
      refused: sum("refused"),
      flagged: sum("flagged"),
      points: sum("points"),
      redemptions: sum("redemptions"),
      activeCustomers: 4, // the late card by its live scan; the imported scans have no card
    });

    // A new time zone moves every day's bounds: the shop's days are made again in it.
    await t.deps.db.update(shops).set({ timezone: "Pacific/Kiritimati" }).where(eq(shops.id, shop.id));
    const moved = await recount(t.deps.db, shop.id);
    expect(await rollup(t.deps.db, shop.id)).toEqual(moved);

    // Devices numbered in the order first seen, once each.
    const devices = await t.deps.db.execute<{ device_id: string; device_no: number }>(sql`
      select device_id, device_no from shop_devices where shop_id = ${shop.id} order by device_no`);
    expect(devices.rows).toEqual([
      { device_id: "phone-aaa", device_no: 1 },
      { device_id: "phone-bbb", device_no: 2 },
      { device_id: "phone-ccc", device_no: 3 },
    ]);
    const list = await (await owner.client.request(`${base}/scans?limit=100`)).json();
    const labels = new Set(list.scans.map((s: { deviceLabel: string | null }) => s.deviceLabel));
    expect(labels).toEqual(new Set(["appareil 1", "appareil 2", "appareil 3"]));
  });

  it("a day's points past 2^31 fold, and the dashboard and what is owed read them (the fold used to fail on it forever)", async () => {
    const { shop, owner } = await shopWithOwner(t, { rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 3 } });
    const shoppers = await Promise.all([signedIn(t), signedIn(t), signedIn(t)]);
    for (const s of shoppers) await grantPoints(t.deps, { shopId: shop.id, userId: s.user.id, points: 1_000_000_000 });
    const folded = await t.deps.db.execute<{ days: number }>(sql`select fidele_daily_stats_fold() as days`);
    expect(Number(folded.rows[0]!.days)).toBeGreaterThan(0);
    const dash = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/dashboard?days=7`)).json();
    expect(dash.totals).toMatchObject({ points: 3_000_000_000, outstandingBalance: 3_000_000_000 });
    const owed = await owner.client.request(`/api/backoffice/shops/${shop.id}/owed`);
    expect(owed.status).toBe(200);
    expect((await owed.json()).outstanding).toMatchObject({ points: 3_000_000_000, holders: 3 });
  });

  it("the customers list sorts and searches the names and e-mails as they are now", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const base = `/api/backoffice/shops/${shop.id}`;
    const zoe = await signedIn(t, { firstName: "Zoé", lastName: "Alvarez" });
    const marc = await signedIn(t, { firstName: "Marc", lastName: "Martin" });
    for (const s of [zoe, marc]) await scan(s.client, t.deps.db, shop.id);
    const names = async () =>
      (await (await owner.client.request(`${base}/customers?sort=name&order=asc`)).json()).customers.map(
        (c: { lastName: string }) => c.lastName,
      );
    expect(await names()).toEqual(["Alvarez", "Martin"]);
    expect((await (await owner.client.request(`${base}/customers?q=zoe%20alv`)).json()).total).toBe(1);

    await t.deps.db.update(profiles).set({ lastName: "Zidane" }).where(eq(profiles.id, zoe.user.id));
    expect(await names()).toEqual(["Martin", "Zidane"]);
    expect((await (await owner.client.request(`${base}/customers?q=alvarez`)).json()).total).toBe(0);
    expect((await (await owner.client.request(`${base}/customers?q=zidane`)).json()).total).toBe(1);

    const mail = `nouvelle.adresse.${marc.user.id.slice(0, 8)}@exemple.fr`;
    await t.deps.db.execute(sql`update "user" set email = ${mail} where id = ${marc.user.id}`);
    const byMail = await (await owner.client.request(`${base}/customers?q=${encodeURIComponent(mail)}`)).json();
    expect(byMail.customers.map((c: { lastName: string }) => c.lastName)).toEqual(["Martin"]);
  });
});
