import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, recordVisit } from "../../src/server/db/factories.ts";
import { recordPreference } from "../../src/server/modules/messages/consent.ts";
import { runReviewRequests } from "../../src/server/modules/messages/review-requests.service.ts";
import { processMessageBatch } from "../../src/server/modules/messages/sending.service.ts";
import { openAfter } from "../fixtures/send-window.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 28 item 2 (ADR 0048), on PGlite and (TEST_DATABASE_URL) PostgreSQL: a review request is never sent twice in
 * 90 days to one person by one shop, never to someone who does not accept any of its channels, and offers nothing
 * (src/domain/reviews/review-requests.test.ts reads every template; here, what was really sent). The clock is moved:
 * visits at chosen instants (recordVisit), the job's run at chosen instants (runReviewRequests' `now`).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const INCENTIVE =
  /\b(points?|tampons?|r[ée]compenses?|cadeaux?|offerts?|gratuit\w*|r[ée]ductions?|remises?|gagn\w*)\b|%|€/i;

async function shopAsking(settings: Record<string, unknown>) {
  const { shop, owner } = await shopWithOwner(t);
  const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/reviews/settings`, {
    method: "PUT",
    json: { enabled: true, target: "fidele", everyVisits: 1, push: false, email: false, ...settings },
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return { shop, owner };
}

async function requestsOf(shopId: string) {
  return (
    await t.deps.db.execute<{ user_id: string; visits: number; message_id: string | null; decided_at: string }>(sql`
      select user_id, visits, message_id, decided_at from review_requests where shop_id = ${shopId} order by decided_at`)
  ).rows;
}

async function deliverAll(shopId: string) {
  const ids = await t.deps.db.execute<{ id: string }>(
    sql`select id from messages where shop_id = ${shopId} and status = 'sending'`,
  );
  for (const { id } of ids.rows) {
    for (let i = 0; i < 10; i++) if ((await processMessageBatch(t.deps, id)).remaining === 0) break;
  }
}

describe("review requests", () => {
  it("after the first visit, once; never twice in 90 days; every Nth visit after that", async () => {
    const { shop } = await shopAsking({ everyVisits: 2 });
    const now = openAfter(new Date(), 0);
    const c = await signedIn(t);
    await recordVisit(t.deps, { shopId: shop.id, userId: c.user.id, at: new Date(now.getTime() - 3 * HOUR) });
    await runReviewRequests(t.deps, now);
    expect(await requestsOf(shop.id)).toHaveLength(0); // visit 1 of « every 2nd »
    await recordVisit(t.deps, { shopId: shop.id, userId: c.user.id, at: new Date(now.getTime() - 2 * HOUR) });
    // Two runs at once (two processes): one request.
    await Promise.all([runReviewRequests(t.deps, now), runReviewRequests(t.deps, now)]);
    expect((await requestsOf(shop.id)).map((r) => r.visits)).toEqual([2]);

    // Visit 4, 30 days later: an asking visit, but within 90 days of the last request.
    const later = openAfter(now, 30);
    for (const h of [3, 2]) {
      await recordVisit(t.deps, { shopId: shop.id, userId: c.user.id, at: new Date(later.getTime() - h * HOUR) });
    }
    await runReviewRequests(t.deps, later);
    expect(await requestsOf(shop.id)).toHaveLength(1);

    // Visit 6, after 90 days: asked again.
    const much = openAfter(now, 95);
    for (const h of [3, 2]) {
      await recordVisit(t.deps, { shopId: shop.id, userId: c.user.id, at: new Date(much.getTime() - h * HOUR) });
    }
    await runReviewRequests(t.deps, much);
    const all = await requestsOf(shop.id);
    expect(all.map((r) => r.visits)).toEqual([2, 6]);
    expect(new Date(all[1]!.decided_at).getTime() - new Date(all[0]!.decided_at).getTime()).toBeGreaterThan(90 * DAY);
  });

  it("never to someone who accepts none of its channels; what is sent offers nothing", async () => {
    const { shop, owner } = await shopAsking({});
    const now = openAfter(new Date(), 0);
    const yes = await signedIn(t);
    const no = await signedIn(t);
    await recordPreference(t.deps.db, {
      userId: no.user.id,
      shopId: shop.id,
      channel: "inapp",
      granted: false,
      wording: "Messages de la boutique dans l'app",
    });
    for (const c of [yes, no]) {
      await recordVisit(t.deps, { shopId: shop.id, userId: c.user.id, at: new Date(now.getTime() - HOUR) });
    }
    await runReviewRequests(t.deps, now);
    const requests = await requestsOf(shop.id);
    expect(requests.map((r) => r.user_id)).toEqual([yes.user.id]);
    await deliverAll(shop.id);
    const delivered = (
      await t.deps.db.execute<{ user_id: string; title: string; body: string; link_url: string }>(sql`
        select d.user_id, m.title, m.body, m.link_url from message_deliveries d join messages m on m.id = d.message_id
        where m.shop_id = ${shop.id} and d.status = 'delivered'`)
    ).rows;
    expect(delivered.map((d) => d.user_id)).toEqual([yes.user.id]);
    expect(`${delivered[0]!.title} ${delivered[0]!.body}`).not.toMatch(INCENTIVE);
    expect(delivered[0]!.link_url).toBe(`/review?shop=${shop.slug}`);
    // The owner sees the request sent.
    const page = (await (await owner.client.request(`/api/backoffice/shops/${shop.id}/reviews`)).json()) as {
      sent: { total: number; reached: number };
    };
    expect(page.sent).toMatchObject({ total: 1, reached: 1 });
  });

  it("Google: the shop's place link; without one, a French 400", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const url = `/api/backoffice/shops/${shop.id}/reviews/settings`;
    const missing = await owner.client.request(url, {
      method: "PUT",
      json: { enabled: true, target: "google", everyVisits: 1, push: false, email: false },
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toMatch(/fiche Google/);
    const place = "https://g.page/r/CdEmOfTheShop/review";
    const { shop: other } = await shopAsking({ target: "google", googleUrl: place });
    const now = openAfter(new Date(), 0);
    const c = await signedIn(t);
    await recordVisit(t.deps, { shopId: other.id, userId: c.user.id, at: new Date(now.getTime() - HOUR) });
    await runReviewRequests(t.deps, now);
    const [m] = (
      await t.deps.db.execute<{ link_url: string }>(sql`select link_url from messages where shop_id = ${other.id}`)
    ).rows;
    expect(m!.link_url).toBe(place);
  });

  it("the shop's team is never asked; a staff member cannot read or set them", async () => {
    const { shop } = await shopAsking({});
    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id);
    expect((await staff.client.request(`/api/backoffice/shops/${shop.id}/reviews`)).status).toBe(403);
    const now = openAfter(new Date(), 0);
    await recordVisit(t.deps, { shopId: shop.id, userId: staff.user.id, at: new Date(now.getTime() - HOUR) });
    await runReviewRequests(t.deps, now);
    expect(await requestsOf(shop.id)).toHaveLength(0);
  });
});
