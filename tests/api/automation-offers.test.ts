import { sql } from "drizzle-orm";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addStaff, createReward, recordVisit } from "../../src/server/db/factories.ts";
import { runAutomations } from "../../src/server/modules/messages/automation-run.service.ts";
import { processMessageBatch } from "../../src/server/modules/messages/sending.service.ts";
import { trustCertificateAuthority } from "../../src/server/lib/outbound.ts";
import type { TestApp } from "../setup/api.ts";
import { type SmsGateways, startSmsGateways } from "../fixtures/sms-gateways.ts";
import { seedSmsWorld } from "../fixtures/sms-world.ts";
import { type PushService, startPushService } from "../fixtures/push-service.ts";
import { seedMessagesWorld } from "../fixtures/messages-world.ts";
import { deliverAll, scratchTestApp } from "./automations-helpers.ts";
import { newKey, shopWithOwner, signedIn } from "./shops-helpers.ts";
import { openAfter } from "../fixtures/send-window.ts";

/**
 * Issue 27 item 1, what ADR 0046 left undone: merge fields in an automation's title and text (filled per recipient
 * with their values when it leaves, refused when unknown), and an optional offer (double points for the recipient
 * alone, or a reward to claim) that expires, given once per occasion, never to the held out nor to the shop's team.
 * Its own scratch database on PostgreSQL (the runs, clock moved, decide every shop's automations), as
 * automations.test.ts. The occasions are decided in the past (the clock injected) so the offers run at the real now
 * the counter's scans happen.
 */
let t: TestApp;
let close: (() => Promise<void>) | undefined;
beforeAll(async () => {
  ({ t, close } = await scratchTestApp("offers"));
});
afterAll(async () => {
  await close?.();
});

const DAY = 86_400_000;

type Occasion = { user_id: string; holdout: boolean; offer_kind: string | null; offer_until: Date | string | null };
async function occasionsOf(shopId: string) {
  return (
    await t.deps.db.execute<Occasion>(sql`
      select user_id, holdout, offer_kind, offer_until from automation_occasions where shop_id = ${shopId}`)
  ).rows;
}

/** The counter credits a visit by the customer's personal code: the delta it gave. */
async function counterCredit(
  owner: Awaited<ReturnType<typeof shopWithOwner>>["owner"],
  shopId: string,
  client: ReturnType<TestApp["client"]>,
) {
  const { personalCode } = await (await client.request("/api/cards/personal-code")).json();
  const res = await owner.client.request(`/api/backoffice/shops/${shopId}/credit`, {
    json: { code: personalCode.display, idempotencyKey: newKey() },
  });
  const body = await res.json();
  expect(body.outcome).toBe("accepted");
  return body.delta as number;
}

describe("issue 27 item 1: merge fields and an offer in automations", () => {
  it("refuses an unknown merge field in French; fills each recipient's own values; double points for 7 days at the counter, for those sent it only, never the team", async () => {
    const { shop, owner } = await shopWithOwner(t, {
      rules: { mode: "points", pointsPerVisit: 10, cooldownMinutes: 0, dailyCap: 20 },
    });
    await createReward(t.deps, { shopId: shop.id, title: "Café offert", cost: 50 });
    const base = `/api/backoffice/shops/${shop.id}/automations`;
    const settings = {
      enabled: true,
      days: 30,
      holdoutPercent: 50,
      email: true,
      title: "{{prenom}}, vous nous manquez !",
      body: "Vous avez {{points}} points. Prochaine récompense : {{prochaine_recompense}}.",
      offer: { kind: "double_points", days: 7 },
    };

    // An unknown field is a French 400 naming it; nothing is saved.
    const refused = await owner.client.request(`${base}/win_back`, {
      method: "PUT",
      json: { ...settings, body: "Bonjour {{prenon}} !" },
    });
    expect(refused.status).toBe(400);
    expect((await refused.json()).fields.body).toBe(
      "Champ de fusion inconnu : {{prenon}}. Utilisez {{prenom}}, {{points}}, {{prochaine_recompense}}.",
    );
    expect((await owner.client.request(`${base}/win_back`, { method: "PUT", json: settings })).status).toBe(200);

    // The page gives the phone preview its example customer and the offer as saved.
    const page = await (await owner.client.request(base)).json();
    const winBack = page.automations.find((a: { kind: string }) => a.kind === "win_back");
    expect(winBack.offer).toEqual({ kind: "double_points", rewardId: null, days: 7 });
    expect(winBack.preview.values).toEqual({
      prenom: "Camille",
      points: "40",
      prochaine_recompense: "Café offert (encore 10 points)",
    });
    // The on/off switch sends no offer: it keeps the one saved.
    const { offer: _offer, ...withoutOffer } = settings;
    expect((await owner.client.request(`${base}/win_back`, { method: "PUT", json: withoutOffer })).status).toBe(200);
    const kept = await (await owner.client.request(base)).json();
    expect(kept.automations.find((a: { kind: string }) => a.kind === "win_back").offer.kind).toBe("double_points");

    // Sixteen customers and the owner (a customer of their own shop too) came 45 days ago.
    const start = new Date(Date.now() - 45 * DAY);
    const people = [];
    for (let i = 0; i < 16; i++) {
      const person = await signedIn(t, { firstName: `Prénom${i}`, emailVerified: true });
      await recordVisit(t.deps, { shopId: shop.id, userId: person.user.id, at: start, delta: 10 + i });
      // Their profile's consent to e-mail (a shop is never refused until they say so).
      await t.deps.db.execute(sql`insert into consents (user_id, channel, granted, wording)
        values (${person.user.id}, 'email', true, 'J''accepte les e-mails.')`);
      people.push(person);
    }
    await recordVisit(t.deps, { shopId: shop.id, userId: owner.user.id, at: start, delta: 10 });

    // The clock at 31 days after: the win-back is decided (some 13 days ago for the real clock).
    const decided = openAfter(start, 31);
    expect(decided.getTime()).toBeLessThan(Date.now() - DAY);
    await runAutomations(t.deps, decided);
    const occasions = await occasionsOf(shop.id);
    // The team is never an occasion; the held out get no offer; each one sent it has the offer, 7 days from then.
    expect(occasions.map((o) => o.user_id).sort()).toEqual(people.map((p) => p.user.id).sort());
    const sent = occasions.filter((o) => !o.holdout);
    const held = occasions.filter((o) => o.holdout);
    expect(sent.length).toBeGreaterThan(0);
    expect(held.length).toBeGreaterThan(0);
    for (const o of held) expect(o.offer_kind).toBeNull();
    for (const o of sent) {
      expect(o.offer_kind).toBe("double_points");
      expect(new Date(o.offer_until!).getTime()).toBe(decided.getTime() + 7 * DAY);
    }

    // Each one reads their own name and balance; the message keeps its fields.
    await deliverAll(t, shop.id);
    const one = people.find((p) => p.user.id === sent[0]!.user_id)!;
    const i = people.indexOf(one);
    const inbox = await (await one.client.request("/api/messages/inbox")).json();
    const got = inbox.messages.find((m: { shop: { slug: string } | null }) => m.shop?.slug === shop.slug);
    expect(got.title).toBe(`Prénom${i}, vous nous manquez !`);
    expect(got.body).toContain(
      `Vous avez ${10 + i} points. Prochaine récompense : Café offert (encore ${40 - i} points).`,
    );
    expect(got.body).toMatch(/Votre offre : vos points doublés à chaque passage, jusqu'au \d+ \w+ \d{4} à \d\d:\d\d\./);
    // Their e-mail copy too (the other channels fill the same kept values: merge-values.ts).
    const mail = t.mails.find((m) => m.to === one.user.email.toLowerCase());
    expect(mail?.subject).toBe(`Prénom${i}, vous nous manquez !`);
    expect(mail?.text).toContain(`Vous avez ${10 + i} points.`);
    const [stored] = (
      await t.deps.db.execute<{ title: string }>(sql`select title from messages where id = (
        select message_id from automation_occasions where shop_id = ${shop.id} and not holdout limit 1)`)
    ).rows;
    expect(stored!.title).toBe("{{prenom}}, vous nous manquez !");

    // The decision was some 13 days ago: its 7 days are over, a visit counts single again.
    expect(await counterCredit(owner, shop.id, one.client)).toBe(10);
    // Their offers moved to run until next week (as one decided today would): the counter doubles for them alone.
    await t.deps.db.execute(sql`update automation_occasions set offer_until = now() + interval '7 days'
      where shop_id = ${shop.id} and offer_kind is not null`);
    expect(await counterCredit(owner, shop.id, one.client)).toBe(20);
    const heldOne = people.find((p) => p.user.id === held[0]!.user_id)!;
    expect(await counterCredit(owner, shop.id, heldOne.client)).toBe(10);
    // The shopper's card says so.
    const cards = (await (await one.client.request("/api/cards")).json()).cards;
    expect(cards.find((c: { shop: { id: string } }) => c.shop.id === shop.id).offers).toEqual([
      expect.objectContaining({ kind: "double_points", rewardTitle: null, claimed: false }),
    ]);
  });

  it("a reward offer: claimed once from the card's gifts, validated at the counter; expired, refused; never the team's", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const reward = await createReward(t.deps, { shopId: shop.id, title: "Croissant offert", cost: 8 });
    const other = await shopWithOwner(t);
    const otherReward = await createReward(t.deps, { shopId: other.shop.id, title: "Pain offert", cost: 8 });
    const base = `/api/backoffice/shops/${shop.id}/automations`;
    const settings = {
      enabled: true,
      days: 30,
      holdoutPercent: 0,
      noHoldoutConfirmed: true,
      title: "Vous nous manquez",
      body: "Revenez nous voir, {{prenom}}.",
      offer: { kind: "reward", rewardId: reward.id, days: 30 },
    };
    // Another shop's reward cannot be offered.
    const foreign = await owner.client.request(`${base}/win_back`, {
      method: "PUT",
      json: { ...settings, offer: { kind: "reward", rewardId: otherReward.id, days: 30 } },
    });
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).fields["offer.rewardId"]).toMatch(/^Cette récompense n'est pas proposée/);
    const noReward = await owner.client.request(`${base}/win_back`, {
      method: "PUT",
      json: { ...settings, offer: { kind: "reward", days: 30 } },
    });
    expect((await noReward.json()).fields["offer.rewardId"]).toBe("Choisissez la récompense offerte.");
    expect((await owner.client.request(`${base}/win_back`, { method: "PUT", json: settings })).status).toBe(200);
    // The other shop offers one for a single day.
    const otherBase = `/api/backoffice/shops/${other.shop.id}/automations`;
    const short = { ...settings, offer: { kind: "reward", rewardId: otherReward.id, days: 1 } };
    expect((await other.owner.client.request(`${otherBase}/win_back`, { method: "PUT", json: short })).status).toBe(
      200,
    );

    const start = new Date(Date.now() - 45 * DAY);
    const shopper = await signedIn(t, { firstName: "Zoé" });
    const barista = await signedIn(t, { firstName: "Bruno" });
    await addStaff(t.deps, shop.id, barista.user.id);
    for (const id of [shopper.user.id, barista.user.id]) {
      await recordVisit(t.deps, { shopId: shop.id, userId: id, at: start });
      await recordVisit(t.deps, { shopId: other.shop.id, userId: id, at: start });
    }
    // Decided some 13 days ago: this shop's offer runs 17 more days, the other's ended 12 days ago.
    await runAutomations(t.deps, openAfter(start, 31));
    const mine = await occasionsOf(shop.id);
    expect(mine.map((o) => [o.user_id, o.offer_kind])).toEqual([[shopper.user.id, "reward"]]);
    await deliverAll(t, shop.id);
    const inbox = await (await shopper.client.request("/api/messages/inbox")).json();
    const message = inbox.messages.find((m: { shop: { slug: string } | null }) => m.shop?.slug === shop.slug);
    expect(message.body).toMatch(
      /^Revenez nous voir, Zoé\.\n\nVotre offre : « Croissant offert » offert, à demander en boutique depuis votre carte, jusqu'au /,
    );

    // On the card and among its gifts; claimed once.
    const cards = (await (await shopper.client.request("/api/cards")).json()).cards;
    const card = cards.find((c: { shop: { id: string } }) => c.shop.id === shop.id);
    expect(card.offers).toEqual([expect.objectContaining({ kind: "reward", rewardTitle: "Croissant offert" })]);
    const vip = await (await shopper.client.request("/api/rewards/vip")).json();
    const gift = vip.cards
      .find((c: { cardId: string }) => c.cardId === card.id)
      .gifts.find((g: { source: string }) => g.source === "offer");
    expect(gift.title).toMatch(/^Croissant offert — offert jusqu'au /);
    const claim = (key = newKey()) =>
      shopper.client.request("/api/rewards/gifts", {
        json: { cardId: card.id, source: "offer", offerId: gift.offerId, idempotencyKey: key },
      });
    const claimed = await claim();
    expect(claimed.status).toBe(201);
    const { redemption } = await claimed.json();
    expect(redemption).toMatchObject({ title: "Croissant offert", cost: 0, status: "pending" });
    expect((await claim()).status).toBe(409);
    // The counter validates it (the shop's reward desk).
    const validated = await owner.client.request(
      `/api/backoffice/shops/${shop.id}/redemptions/${redemption.id}/validate`,
      { method: "POST" },
    );
    expect(validated.status).toBe(200);
    expect((await claim()).status).toBe(409);
    const after = (await (await shopper.client.request("/api/cards")).json()).cards;
    expect(after.find((c: { id: string }) => c.id === card.id).offers[0].claimed).toBe(true);

    // The other shop's one-day offer has expired: refused, and no longer on the card.
    const [expired] = (
      await t.deps.db.execute<{ id: string; card_id: string }>(sql`
        select id, card_id from automation_occasions where shop_id = ${other.shop.id} and user_id = ${shopper.user.id}`)
    ).rows;
    const late = await shopper.client.request("/api/rewards/gifts", {
      json: { cardId: expired!.card_id, source: "offer", offerId: expired!.id, idempotencyKey: newKey() },
    });
    expect(late.status).toBe(409);
    expect((await late.json()).message).toBe("Cette offre a expiré.");
    expect(after.find((c: { id: string }) => c.id === expired!.card_id).offers).toEqual([]);

    // The barista got the other shop's (a customer there), never their own shop's; a colleague's offer is not theirs.
    const theirs = await t.deps.db.execute<{ shop_id: string }>(sql`
      select shop_id from automation_occasions where user_id = ${barista.user.id}`);
    expect(theirs.rows.map((r) => r.shop_id)).toEqual([other.shop.id]);
    const [shopperOccasion] = (
      await t.deps.db.execute<{ id: string; card_id: string }>(sql`
        select id, card_id from automation_occasions where shop_id = ${shop.id}`)
    ).rows;
    const stolen = await barista.client.request("/api/rewards/gifts", {
      json: {
        cardId: shopperOccasion!.card_id,
        source: "offer",
        offerId: shopperOccasion!.id,
        idempotencyKey: newKey(),
      },
    });
    expect(stolen.status).toBe(404);
  });
});

describe("issue 27 item 1: an automation's SMS and push say each recipient's own values", () => {
  let gw: SmsGateways;
  let ps: PushService;
  let sms: TestApp;
  let closeSms: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    gw = await startSmsGateways();
    ps = await startPushService();
    trustCertificateAuthority(ps.cert);
    const vapid = webpush.generateVAPIDKeys();
    ({ t: sms, close: closeSms } = await scratchTestApp("offers-channels", {
      ...gw.envFor("smsgate"),
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: "mailto:test@fidele.local",
      PUSH_SERVICE_ORIGINS: ps.origin,
    }));
  });
  afterAll(async () => {
    trustCertificateAuthority(undefined);
    await closeSms?.();
    await gw?.close();
    await ps?.close();
  });

  /** Three customers of the shop away 45 days, with 5, 6 and 7 points; its win-back on (no holdout); sent. */
  async function sendWinBack(shopId: string, channel: "push" | "sms") {
    const start = new Date(Date.now() - 45 * DAY);
    await sms.deps.db.execute(sql`
      update cards c set last_scan_at = ${start.toISOString()}::timestamptz, balance = 4 + x.n
      from (select id, row_number() over (order by id) as n from cards where shop_id = ${shopId}) x
      where c.id = x.id`);
    await sms.deps.db.execute(sql`
      insert into automations (shop_id, kind, enabled, enabled_at, with_push, with_sms, days, title, body, holdout_percent)
      values (${shopId}, 'win_back', true, now(), ${channel === "push"}, ${channel === "sms"}, 30,
        '{{prenom}}, on vous attend', 'Il vous reste {{points}} points.', 0)`);
    await runAutomations(sms.deps, openAfter(start, 31));
    const [message] = (
      await sms.deps.db.execute<{ id: string }>(sql`
        select id from messages where shop_id = ${shopId} and kind = 'automation'`)
    ).rows;
    const monday = new Date("2026-11-23T09:00:00Z"); // Monday 23 November 2026, 10:00 in Paris: the window is open
    for (let i = 0; i < 5; i++) {
      if ((await processMessageBatch(sms.deps, message!.id, { now: () => monday })).remaining === 0) break;
    }
  }

  it("each push is filled with its recipient's own balance", async () => {
    const world = await seedMessagesWorld(sms.deps.db, 3, ps);
    await sendWinBack(world.shopId, "push");
    const bodies = world.pushIds
      .flatMap((id) => ps.for(id))
      .map((r) => (r.payload as { body?: string }).body)
      .filter((b) => b?.startsWith("Il vous reste"))
      .sort();
    expect(bodies).toEqual(["Il vous reste 5 points.", "Il vous reste 6 points.", "Il vous reste 7 points."]);
  });

  it("each SMS is filled with its recipient's own first name and balance", async () => {
    const world = await seedSmsWorld(sms.deps.db, 3);
    await sendWinBack(world.shopId, "sms");
    const texts = gw.received
      .filter((r) => world.accepting.includes(r.to))
      .map((r) => r.text.match(/Il vous reste \d+ points\./)?.[0])
      .sort();
    expect(texts).toEqual(["Il vous reste 5 points.", "Il vous reste 6 points.", "Il vous reste 7 points."]);
    expect(
      gw.received.filter((r) => world.accepting.includes(r.to)).every((r) => r.text.includes("Client, on vous attend")),
    ).toBe(true);
  });
});
