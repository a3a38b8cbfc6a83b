import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { recordVisit } from "../../src/server/db/factories.ts";
import { refreshRhythm } from "../../src/server/lib/rhythm.ts";
import { runAutomations } from "../../src/server/modules/messages/automation-run.service.ts";
import { measureAutomations } from "../../src/server/modules/messages/automations.service.ts";
import type { TestApp } from "../setup/api.ts";
import { scratchTestApp } from "./automations-helpers.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";
import { openAfter } from "../fixtures/send-window.ts";

/**
 * Issue 27 item 4: the platform admin sees retention across shops and each shop's automations' volumes (sent, held
 * out, returned, last 30 days) at GET /api/admin/retention; the console shows them (tests/e2e/platform-retention.test.ts).
 * Checked against the kept rows and counts made directly in SQL.
 */
let t: TestApp;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ t, close } = await scratchTestApp("platform"));
});
afterAll(async () => {
  await close?.();
});

const DAY = 86_400_000;

type Volumes = { kind: string; sent: number; heldOut: number; returned: number; heldOutReturned: number };

describe("issue 27 item 4: retention and automations across shops, for the platform admin", () => {
  it("each shop's rhythm figures and its automations' last 30 days, the platform's totals; refused to others", async () => {
    const { shop, owner } = await shopWithOwner(t, { name: "Boulangerie des Lilas" });
    const quiet = await shopWithOwner(t, { name: "Épicerie sans chiffres" });
    const idle = await shopWithOwner(t, { name: "Café en attente" });
    const base = (id: string) => `/api/backoffice/shops/${id}/automations`;
    const winBack = { enabled: true, days: 30, holdoutPercent: 50, title: "Vous nous manquez", body: "Revenez !" };
    expect((await owner.client.request(`${base(shop.id)}/win_back`, { method: "PUT", json: winBack })).status).toBe(
      200,
    );
    expect(
      (await idle.owner.client.request(`${base(idle.shop.id)}/welcome`, { method: "PUT", json: winBack })).status,
    ).toBe(200);

    // Twelve regulars (a visit a week, three times), the last 45 days ago.
    const start = new Date(Date.now() - 45 * DAY);
    const people: string[] = [];
    for (let i = 0; i < 12; i++) {
      const user = await t.createUser({ withoutPassword: true });
      for (const back of [14, 7, 0]) {
        await recordVisit(t.deps, { shopId: shop.id, userId: user.id, at: new Date(start.getTime() - back * DAY) });
      }
      people.push(user.id);
    }
    const decided = openAfter(start, 31);
    await runAutomations(t.deps, decided);
    const occasions = (
      await t.deps.db.execute<{ user_id: string; holdout: boolean }>(sql`
        select user_id, holdout from automation_occasions where shop_id = ${shop.id}`)
    ).rows;
    const sent = occasions.filter((o) => !o.holdout);
    const held = occasions.filter((o) => o.holdout);
    expect(sent.length).toBeGreaterThan(0);
    expect(held.length).toBeGreaterThan(0);
    // One of each group comes back two days later.
    for (const o of [sent[0]!, held[0]!]) {
      await recordVisit(t.deps, { shopId: shop.id, userId: o.user_id, at: new Date(decided.getTime() + 2 * DAY) });
    }
    const now = new Date();
    await measureAutomations(t.deps.db, now);
    await refreshRhythm(t.deps.db, shop.id, now);

    // Not the platform admin: refused.
    expect((await owner.client.request("/api/admin/retention")).status).toBe(403);

    const admin = await signedIn(t, { role: "admin" });
    const res = await admin.client.request("/api/admin/retention?limit=100");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.days).toBe(30);
    const [kept] = (
      await t.deps.db.execute<{ regulars: number; at_risk: number; median_days: number }>(sql`
        select regulars, at_risk, median_days from shop_rhythms where shop_id = ${shop.id}`)
    ).rows;
    expect(kept!.regulars).toBe(12);
    const lilas = body.shops.find((s: { id: string }) => s.id === shop.id);
    expect(lilas).toMatchObject({
      name: "Boulangerie des Lilas",
      customers: 12,
      regulars: 12,
      atRisk: Number(kept!.at_risk),
      medianDaysBetweenVisits: Math.round(Number(kept!.median_days) * 10) / 10,
    });
    expect(lilas.atRisk).toBe(10);
    expect(lilas.automations).toEqual([
      {
        kind: "win_back",
        label: "Vous nous manquez",
        enabled: true,
        sent: sent.length,
        heldOut: held.length,
        returned: 1,
        heldOutReturned: 1,
      },
    ]);
    // A shop with an automation on and nothing sent yet is listed with it; one with neither figures nor automations
    // is not.
    expect(body.shops.find((s: { id: string }) => s.id === idle.shop.id).automations).toEqual([
      expect.objectContaining({ kind: "welcome", enabled: true, sent: 0, heldOut: 0 }),
    ]);
    expect(body.shops.some((s: { id: string }) => s.id === quiet.shop.id)).toBe(false);

    // The platform's totals, against counts made directly.
    const [direct] = (
      await t.deps.db.execute<{ sent: number; held: number; returned: number; held_returned: number }>(sql`
        select count(*) filter (where not o.holdout)::int as sent, count(*) filter (where o.holdout)::int as held,
          count(*) filter (where not o.holdout and o.visits > 0)::int as returned,
          count(*) filter (where o.holdout and o.visits > 0)::int as held_returned
        from automation_occasions o join automations a on a.id = o.automation_id
        where a.kind = 'win_back' and not o.manual and o.decided_at >= now() - interval '30 days'`)
    ).rows;
    const total = body.totals.automations.find((a: Volumes) => a.kind === "win_back");
    expect(total).toMatchObject({
      sent: direct!.sent,
      heldOut: direct!.held,
      returned: direct!.returned,
      heldOutReturned: direct!.held_returned,
    });
    const [rhythms] = (
      await t.deps.db.execute<{ shops: number; regulars: number }>(sql`
        select count(*)::int as shops, coalesce(sum(regulars), 0)::int as regulars from shop_rhythms`)
    ).rows;
    expect(body.totals).toMatchObject({ shops: rhythms!.shops, regulars: rhythms!.regulars });

    // Paged: one shop a page.
    const first = await (await admin.client.request("/api/admin/retention?limit=1")).json();
    expect(first.shops).toHaveLength(1);
    expect(first.total).toBe(body.total);
    expect((await admin.client.request("/api/admin/retention?limit=0")).status).toBe(400);
  });
});
