import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addMonths } from "../../src/domain/loyalty/retention.ts";
import { localParts } from "../../src/domain/loyalty/time.ts";
import { recordVisit } from "../../src/server/db/factories.ts";
import { foldRetention } from "../../src/server/modules/cards/retention.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner } from "./shops-helpers.ts";

/**
 * Issue 27, acceptance row 3 (ADR 0046): the dashboard's retention figures — read from the cards and the rollups —
 * against the same figures computed directly from the shop's visits (scans) in SQL, on a shop seeded with five
 * months of visits at varied rhythms. On PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const DAY = 86_400_000;

type Retention = {
  cohorts: { month: string; customers: number; returned: number[] }[];
  medianDaysBetweenVisits: number | null;
  atRisk: {
    count: number;
    people: { cardId: string; name: string; visits: number; rhythmDays: number; winBackSent: boolean }[];
  };
  weeks: { week: string; newCustomers: number; returningVisits: number }[];
  top: { cardId: string; lifetime: number }[];
};

describe("issue 27 row 3: retention figures against SQL on the visits", () => {
  it("the cohort grid, the at-risk list, the rhythm, the weeks and the top customers match the rows", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const now = new Date();
    // 40 customers: first visits from 180 to 24 days ago, every 3 to 11 days, 1 to 6 visits, none in the future.
    // 156 days of first visits touch at least 5 calendar months whatever the day the test runs (4 months hold at most
    // 123 days); 150 to 33 days (117 days) gave 4 cohorts on some evenings.
    for (let i = 0; i < 40; i++) {
      const user = await t.createUser({ withoutPassword: true, firstName: `Client${i}` });
      const first = now.getTime() - (180 - i * 4) * DAY - (i % 5) * 3_600_000;
      const every = (3 + (i % 9)) * DAY;
      for (let v = 0; v < 1 + (i % 6); v++) {
        const at = first + v * every;
        if (at < now.getTime())
          await recordVisit(t.deps, { shopId: shop.id, userId: user.id, at: new Date(at), delta: 10 });
      }
    }
    // Backdated history: the daily figures made again from the rows (as a migration or the bench does), and the
    // ended months folded (the job retention.fold).
    await t.deps.db.execute(sql`select fidele_daily_stats_rebuild(${shop.id})`);
    await foldRetention(t.deps.db, now);
    expect((await t.deps.db.execute(sql`select 1 from shop_cohort_folds where shop_id = ${shop.id}`)).rows).toHaveLength(1);

    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/retention`);
    expect(res.status).toBe(200);
    const r = (await res.json()) as Retention;

    // The cohort grid, from the visits: customers by month of first visit, and of them those with a visit in each
    // later month.
    const tz = "Europe/Paris";
    const month = (col: string) => sql.raw(`to_char(date_trunc('month', ${col} at time zone '${tz}'), 'YYYY-MM-DD')`);
    const firsts = await t.deps.db.execute<{ card_id: string; cohort: string }>(sql`
      select card_id, ${month("min(created_at)")} as cohort from scans
      where shop_id = ${shop.id} and outcome = 'accepted' group by card_id`);
    const active = await t.deps.db.execute<{ cohort: string; month: string; n: number }>(sql`
      with f as (select card_id, min(created_at) as first from scans where shop_id = ${shop.id} and outcome = 'accepted' group by card_id)
      select ${month("f.first")} as cohort, ${month("s.created_at")} as month, count(distinct s.card_id)::int as n
      from scans s join f on f.card_id = s.card_id where s.shop_id = ${shop.id} and s.outcome = 'accepted' group by 1, 2`);
    const sizes = new Map<string, number>();
    for (const f of firsts.rows) sizes.set(f.cohort, (sizes.get(f.cohort) ?? 0) + 1);
    const expected = [...sizes.keys()].sort().map((cohort) => {
      const returned: number[] = [];
      for (let k = 1; addMonths(cohort, k) <= addMonths(localParts(now, tz).date, 0); k++) {
        const m = addMonths(cohort, k);
        returned.push(Number(active.rows.find((a) => a.cohort === cohort && a.month === m)?.n ?? 0));
      }
      return { month: cohort, customers: sizes.get(cohort)!, returned };
    });
    expect(r.cohorts).toEqual(expected);
    expect(r.cohorts.length).toBeGreaterThanOrEqual(5);
    expect(r.cohorts.some((c) => c.returned.some((n) => n > 0))).toBe(true);

    // At risk, from the visits: 3 visits or more, away more than twice their own rhythm (7 days at least), fewer
    // than 180 days.
    const risk = await t.deps.db.execute<{ card_id: string; rhythm: number }>(sql`
      with v as (select card_id, count(*) as n, min(created_at) as first, max(created_at) as last from scans
        where shop_id = ${shop.id} and outcome = 'accepted' group by card_id)
      select card_id, (extract(epoch from (last - first)) / 86400.0 / (n - 1))::float8 as rhythm from v
      where n >= 3 and last > ${now.toISOString()}::timestamptz - interval '180 days'
        and extract(epoch from (${now.toISOString()}::timestamptz - last)) / 86400.0
          > greatest(2 * extract(epoch from (last - first)) / 86400.0 / (n - 1), 7)`);
    expect(r.atRisk.count).toBe(risk.rows.length);
    expect(r.atRisk.count).toBeGreaterThan(0);
    const lifetime = await t.deps.db.execute<{ card_id: string; points: number }>(sql`
      select card_id, sum(delta)::int as points from ledger_entries where shop_id = ${shop.id} group by card_id`);
    const pointsOf = new Map(lifetime.rows.map((l) => [l.card_id, Number(l.points)]));
    const expectedRisk = risk.rows
      .sort((a, b) => pointsOf.get(b.card_id)! - pointsOf.get(a.card_id)! || (a.card_id < b.card_id ? 1 : -1))
      .slice(0, 10);
    expect(r.atRisk.people.map((p) => p.cardId)).toEqual(expectedRisk.map((x) => x.card_id));
    for (const [i, p] of r.atRisk.people.entries()) {
      expect(p.rhythmDays).toBeCloseTo(Number(expectedRisk[i]!.rhythm), 1);
      expect(p.name).toMatch(/^Client\d+ Martin$/);
      expect(p.winBackSent).toBe(false);
    }

    // The median rhythm of regulars, the top customers.
    const [median] = (
      await t.deps.db.execute<{ m: number }>(sql`
        with v as (select card_id, count(*) as n, min(created_at) as first, max(created_at) as last from scans
          where shop_id = ${shop.id} and outcome = 'accepted' group by card_id)
        select percentile_cont(0.5) within group (order by extract(epoch from (last - first)) / 86400.0 / (n - 1))::float8 as m
        from v where n >= 3`)
    ).rows;
    expect(r.medianDaysBetweenVisits).toBeCloseTo(Number(median!.m), 1);
    expect(r.top.map((p) => p.lifetime)).toEqual([...pointsOf.values()].sort((a, b) => b - a).slice(0, 10));
    // Weeks: new customers and returning visits add up to the visits of those weeks.
    const weekVisits = r.weeks.reduce((n, w) => n + w.newCustomers + w.returningVisits, 0);
    const [recent] = (
      await t.deps.db.execute<{ n: number }>(sql`
        select count(*)::int as n from scans where shop_id = ${shop.id} and outcome = 'accepted'
          and (created_at at time zone ${tz})::date >= ${r.weeks[0]!.week}::date`)
    ).rows;
    expect(weekVisits).toBe(Number(recent!.n));
  });
});

describe("issue 30: the hourly rhythm pass follows the shops with visits", () => {
  it("a shop's rhythm is worked out again after an hour once it had a visit since, and after a day without one", async () => {
    const { shop } = await shopWithOwner(t);
    const user = await t.createUser({ withoutPassword: true });
    const now = new Date(Date.now() - 10 * DAY);
    for (let v = 3; v > 0; v--)
      await recordVisit(t.deps, { shopId: shop.id, userId: user.id, at: new Date(now.getTime() - v * 5 * DAY) });
    const keptAt = async () =>
      new Date(
        (
          await t.deps.db.execute<{ at: string | Date }>(
            sql`select computed_at as at from shop_rhythms where shop_id = ${shop.id}`,
          )
        ).rows[0]!.at,
      ).getTime();
    const later = (minutes: number) => new Date(now.getTime() + minutes * 60_000);

    await foldRetention(t.deps.db, now);
    expect(await keptAt()).toBe(now.getTime());
    // An hour and more with no visit: kept as it was.
    await foldRetention(t.deps.db, later(90));
    expect(await keptAt()).toBe(now.getTime());
    // A visit since: worked out again at the next pass.
    await recordVisit(t.deps, { shopId: shop.id, userId: user.id, at: later(100) });
    await foldRetention(t.deps.db, later(120));
    expect(await keptAt()).toBe(later(120).getTime());
    // No visit for a day: worked out again once the day has passed (the days move who is at risk), not before.
    await foldRetention(t.deps.db, later(120 + 23 * 60));
    expect(await keptAt()).toBe(later(120).getTime());
    await foldRetention(t.deps.db, later(120 + 24 * 60));
    expect(await keptAt()).toBe(later(120 + 24 * 60).getTime());
  });
});
