import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward } from "../../src/server/db/factories.ts";
import { eraseAccount } from "../../src/server/modules/accounts/rgpd.service.ts";
import { releaseDueReferrals, releaseReferral } from "../../src/server/modules/referrals/release.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { type Client, posterFor, scan, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 28 item 1 (ADR 0048): parrainage that cannot be farmed, on PGlite and (TEST_DATABASE_URL) PostgreSQL.
 * Acceptance rows: 20 friends from one network and device give the sponsor at most the cap and the owner sees the
 * ring; a friend who never visits releases nothing; concurrent releases give exactly one reward each.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const CAP = 3;
const SPONSOR_POINTS = 10;
const FRIEND_POINTS = 5;

/** A shop with parrainage on (points both sides, CAP a month), and a sponsor with one visit and their link. */
async function programme() {
  const { shop, owner } = await shopWithOwner(t);
  const base = `/api/backoffice/shops/${shop.id}/referrals`;
  const saved = await owner.client.request(`${base}/program`, {
    method: "PUT",
    json: {
      enabled: true,
      sponsor: { points: SPONSOR_POINTS, rewardId: null },
      friend: { points: FRIEND_POINTS, rewardId: null },
      monthlyCap: CAP,
    },
  });
  expect(saved.status).toBe(200);
  const sponsor = await signedIn(t, { firstName: "Sophie" });
  expect((await scan(sponsor.client, t.deps.db, shop.id)).body.accepted).toBe(true);
  const link = await sponsor.client.request("/api/referrals/link", {
    json: { shopSlug: shop.slug, deviceId: "sponsor-device-1" },
    ip: "198.51.100.20",
  });
  expect(link.status).toBe(200);
  const { code, url } = (await link.json()) as { code: string; url: string };
  expect(url).toContain(`/parrainage/${code}`);
  return { shop, owner, sponsor, code, base };
}

async function accept(client: Client, code: string, deviceId: string, ip: string) {
  return client.request(`/api/referrals/invites/${code}/accept`, { json: { deviceId }, ip });
}

/** Referral ledger entries per user at one shop. */
async function referralPoints(shopId: string) {
  const rows = await t.deps.db.execute<{ user_id: string; n: number; points: number }>(sql`
    select c.user_id, count(*)::int as n, sum(l.delta)::int as points from ledger_entries l join cards c on c.id = l.card_id
    where l.shop_id = ${shopId} and l.kind = 'referral' group by c.user_id`);
  return new Map(rows.rows.map((r) => [r.user_id, { n: Number(r.n), points: Number(r.points) }]));
}

describe("parrainage", () => {
  it("20 friends from one network and device: held as a ring the owner sees; the sponsor gets at most the cap", async () => {
    const { shop, owner, sponsor, code, base } = await programme();
    const friends = [];
    for (let i = 0; i < 20; i++) {
      const friend = await signedIn(t, { firstName: `Ami${i}` });
      const res = await accept(friend.client, code, "ring-device-0001", "198.51.77.5");
      expect(res.status, await res.clone().text()).toBe(201);
      friends.push(friend);
    }
    // Signing up gives nothing.
    expect((await referralPoints(shop.id)).size).toBe(0);
    for (const f of friends) expect((await scan(f.client, t.deps.db, shop.id)).body.accepted).toBe(true);
    const first = await releaseDueReferrals(t.deps);
    expect(first).toEqual({ released: 0, held: 20, refused: 0 });
    expect((await referralPoints(shop.id)).size).toBe(0);

    const page = (await (await owner.client.request(base)).json()) as {
      totals: { held: number };
      referrals: { id: string; sponsor: string; friend: string; status: string; reasons: string[] }[];
    };
    expect(page.totals.held).toBe(20);
    expect(page.referrals.every((r) => r.status === "held" && r.sponsor.startsWith("Sophie"))).toBe(true);
    expect(page.referrals[0]!.reasons).toEqual(expect.arrayContaining(["même appareil", "même réseau internet"]));

    // The owner releases all twenty at once: each friend once, the sponsor CAP times.
    const decisions = await Promise.all(
      page.referrals.map((r) => owner.client.request(`${base}/${r.id}/decision`, { json: { release: true } })),
    );
    expect(decisions.map((d) => d.status)).toEqual(Array(20).fill(200));
    const points = await referralPoints(shop.id);
    expect(points.get(sponsor.user.id)).toEqual({ n: CAP, points: CAP * SPONSOR_POINTS });
    for (const f of friends) expect(points.get(f.user.id)).toEqual({ n: 1, points: FRIEND_POINTS });
    // A second decision is refused in French.
    const again = await owner.client.request(`${base}/${page.referrals[0]!.id}/decision`, { json: { release: true } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { message: string }).message).toMatch(/n'attend plus/);
  });

  it("a friend who never visits at the counter releases nothing (sign-up and the poster do not count)", async () => {
    const { shop, owner, code } = await programme();
    const friend = await signedIn(t);
    expect((await accept(friend.client, code, "lonely-device-01", "198.51.90.9")).status).toBe(201);
    // The fixed poster (when the shop allows it) credits a visit but proves no presence at the counter.
    const cardUrl = `/api/backoffice/shops/${shop.id}/card`;
    const {
      summary: _s,
      shop: _shop,
      ...rules
    } = ((await (await owner.client.request(cardUrl)).json()) as { card: Record<string, unknown> }).card;
    expect(
      (await owner.client.request(cardUrl, { method: "PUT", json: { ...rules, allowStaticPoster: true } })).status,
    ).toBe(200);
    const poster = await posterFor(t.deps.db, shop.id);
    const viaPoster = await friend.client.request("/api/cards/scan", {
      json: { scanUid: poster.scanUid, poster: poster.poster, idempotencyKey: crypto.randomUUID() },
    });
    expect(((await viaPoster.json()) as { accepted: boolean }).accepted).toBe(true);
    await releaseDueReferrals(t.deps);
    const [row] = (
      await t.deps.db.execute<{ status: string }>(sql`select status from referrals where friend_id = ${friend.user.id}`)
    ).rows;
    expect(row!.status).toBe("waiting");
    expect((await referralPoints(shop.id)).size).toBe(0);
  });

  it("concurrent release attempts give exactly one reward each", async () => {
    const { shop, sponsor, code } = await programme();
    const friend = await signedIn(t);
    expect((await accept(friend.client, code, "own-device-0001", "198.51.91.9")).status).toBe(201);
    expect((await scan(friend.client, t.deps.db, shop.id)).body.accepted).toBe(true);
    const [r] = (
      await t.deps.db.execute<{ id: string }>(sql`select id from referrals where friend_id = ${friend.user.id}`)
    ).rows;
    const outcomes = await Promise.all([
      ...Array.from({ length: 12 }, () => releaseReferral(t.deps.db, r!.id)),
      releaseDueReferrals(t.deps),
      releaseDueReferrals(t.deps),
    ]);
    const released = outcomes.filter((o) => o === "released").length;
    const byPass = outcomes
      .filter((o): o is { released: number; held: number; refused: number } => typeof o === "object")
      .reduce((n, o) => n + o.released, 0);
    expect(released + byPass).toBe(1);
    const points = await referralPoints(shop.id);
    expect(points.get(sponsor.user.id)).toEqual({ n: 1, points: SPONSOR_POINTS });
    expect(points.get(friend.user.id)).toEqual({ n: 1, points: FRIEND_POINTS });
  });

  it("the shop's team can neither sponsor nor be sponsored there; a customer cannot be a friend; nor oneself", async () => {
    const { shop, sponsor, code } = await programme();
    const staff = await signedIn(t);
    await addStaff(t.deps, shop.id, staff.user.id);
    const asFriend = await accept(staff.client, code, "staff-device-01", "198.51.92.9");
    expect(asFriend.status).toBe(403);
    expect(((await asFriend.json()) as { message: string }).message).toMatch(/équipe/);
    const asSponsor = await staff.client.request("/api/referrals/link", { json: { shopSlug: shop.slug } });
    expect(asSponsor.status).toBe(403);
    const self = await accept(sponsor.client, code, "sponsor-device-1", "198.51.100.20");
    expect(self.status).toBe(409);
    const customer = await signedIn(t);
    expect((await scan(customer.client, t.deps.db, shop.id)).body.accepted).toBe(true);
    const already = await accept(customer.client, code, "customer-dev-01", "198.51.93.9");
    expect(already.status).toBe(409);
    expect(((await already.json()) as { message: string }).message).toMatch(/nouveaux clients/);
  });

  it("a friend who joins the team before their visit is refused at release", async () => {
    const { shop, code } = await programme();
    const friend = await signedIn(t);
    expect((await accept(friend.client, code, "later-staff-01", "198.51.94.9")).status).toBe(201);
    expect((await scan(friend.client, t.deps.db, shop.id)).body.accepted).toBe(true);
    await addStaff(t.deps, shop.id, friend.user.id);
    await releaseDueReferrals(t.deps);
    const [row] = (
      await t.deps.db.execute<{ status: string }>(sql`select status from referrals where friend_id = ${friend.user.id}`)
    ).rows;
    expect(row!.status).toBe("refused");
    expect((await referralPoints(shop.id)).size).toBe(0);
  });

  it("erasure: a friend's device and network leave the referral with them; a sponsor's link goes with theirs", async () => {
    const { shop, sponsor, code } = await programme();
    const friend = await signedIn(t, { firstName: "Noémie" });
    expect((await accept(friend.client, code, "erased-device-01", "198.51.61.7")).status).toBe(201);
    const signals = async () =>
      (
        await t.deps.db.execute<{ friend_id: string | null; device_id: string | null; network: string | null }>(
          sql`select friend_id, device_id, network from referrals where shop_id = ${shop.id}`,
        )
      ).rows;
    expect(await signals()).toEqual([
      { friend_id: friend.user.id, device_id: "erased-device-01", network: "198.51.61.0/24" },
    ]);
    await eraseAccount(t.deps, friend.user.id, { purge: true });
    // The referral stays for the sponsor's count and the shop's figures, naming nobody and linking nothing.
    expect(await signals()).toEqual([{ friend_id: null, device_id: null, network: null }]);

    const links = async () =>
      (
        await t.deps.db.execute<{ n: number }>(
          sql`select count(*)::int as n from referral_codes where code = ${code} or user_id = ${sponsor.user.id}`,
        )
      ).rows[0]!.n;
    expect(Number(await links())).toBe(1);
    await eraseAccount(t.deps, sponsor.user.id, { purge: true });
    expect(Number(await links())).toBe(0);
  });

  it("an invitation as a friend sees it; an unknown link is a French 404", async () => {
    const { shop, code } = await programme();
    const visitor = t.client();
    const res = await visitor.request(`/api/referrals/invites/${code}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({
      shop: { slug: shop.slug },
      sponsorFirstName: "Sophie",
      friendGift: `${FRIEND_POINTS} tampons`,
    });
    const unknown = await visitor.request("/api/referrals/invites/abcdefghjk");
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { message: string }).message).toMatch(/lien de parrainage/);
  });

  it("a reward of the card: each side claims it once as a gift on /vip, handed over at the counter like any other", async () => {
    const { shop, owner, sponsor, code, base } = await programme();
    const reward = await createReward(t.deps, { shopId: shop.id, title: "Café offert", cost: 8 });
    const saved = await owner.client.request(`${base}/program`, {
      method: "PUT",
      json: {
        enabled: true,
        sponsor: { points: null, rewardId: reward.id },
        friend: { points: null, rewardId: reward.id },
        monthlyCap: 1,
      },
    });
    expect(saved.status).toBe(200);
    const friend = await signedIn(t);
    expect((await accept(friend.client, code, "gift-device-0001", "198.51.95.9")).status).toBe(201);
    expect((await scan(friend.client, t.deps.db, shop.id)).body.accepted).toBe(true);
    expect(await releaseDueReferrals(t.deps)).toMatchObject({ released: 1 });
    for (const who of [friend, sponsor]) {
      const vip = (await (await who.client.request("/api/rewards/vip")).json()) as {
        cards: {
          cardId: string;
          shop: { slug: string };
          gifts: { source: string; referralId: string | null; title: string }[];
        }[];
      };
      const card = vip.cards.find((c) => c.shop.slug === shop.slug)!;
      const gift = card.gifts.find((g) => g.source === "referral")!;
      expect(gift.title).toContain("Café offert");
      const claim = (key: string) =>
        who.client.request("/api/rewards/gifts", {
          json: { cardId: card.cardId, source: "referral", referralId: gift.referralId, idempotencyKey: key },
        });
      expect((await claim(crypto.randomUUID())).status).toBe(201);
      expect((await claim(crypto.randomUUID())).status).toBe(409);
    }
    // No points were given: a reward, not points.
    expect((await referralPoints(shop.id)).size).toBe(0);
  });
});
