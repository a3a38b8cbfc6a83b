import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatLocalDate, formatLocalMonth } from "../../src/domain/format.ts";
import { addDays, localParts } from "../../src/domain/loyalty/time.ts";
import { createShop, recordVisit } from "../../src/server/db/factories.ts";
import type { ChannelDriver } from "../../src/server/modules/messages/channels/driver.ts";
import { finishIfDone, processMessageBatch, startSending } from "../../src/server/modules/messages/sending.service.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Issue 22, row 5 and item 2 (ADR 0032): a shop's sends have a quota (messages and e-mail
 * campaigns a day and a month, on create and schedule), a person gets at most
 * MESSAGES_RECIPIENT_PER_DAY messages of one shop a day whatever the channel (the engine),
 * and the platform admin sees each shop's SMS volume with an alert on spikes.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

const parisDate = (d: Date) => localParts(d, "Europe/Paris").date;
const compose = { title: "Promo", body: "Croissants à -20 %.", push: false, email: true, segment: { kind: "all" } };

describe("issue 22 row 5: a shop's sending quota", () => {
  it("issue 22 row 5: 12 messages in a row: 3 accepted (MESSAGES_SHOP_PER_DAY), the 4th to the 13th refused 429 in French with the next day possible", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const sent = `/api/backoffice/shops/${shop.id}/messages`;
    const statuses: number[] = [];
    let refusal = "";
    for (let i = 0; i < 13; i++) {
      const res = await owner.client.request(sent, { json: { ...compose, title: `Promo ${i + 1}` } });
      statuses.push(res.status);
      const body = await res.json();
      if (res.status === 429 && !refusal) refusal = body.message;
    }
    expect(statuses).toEqual([201, 201, 201, ...Array(10).fill(429)]);
    const today = parisDate(new Date());
    expect(refusal).toBe(
      `Votre boutique a atteint son quota de 3 messages pour le ${formatLocalDate(today)} (3 messages par jour et 30 messages par mois au plus sur cette plateforme). Prochain envoi possible : le ${formatLocalDate(addDays(today, 1))} (programmez-le pour ce jour-là).`,
    );
    const rows = await t.deps.db.execute<{ n: number }>(
      sql`select count(*)::int as n from messages where shop_id = ${shop.id}`,
    );
    expect(rows.rows[0]?.n).toBe(3);
    // The composer tells the owner the quota and what is used.
    const composer = await (await owner.client.request(`/api/backoffice/shops/${shop.id}/messages/composer`)).json();
    expect(composer.quota).toMatchObject({ perDay: 3, perMonth: 30, today: 3 });
    // Scheduled for a day with room, it is taken.
    const tomorrow = new Date(Date.now() + 26 * 3_600_000).toISOString();
    const later = await owner.client.request(sent, { json: { ...compose, scheduledAt: tomorrow } });
    expect(later.status).toBe(201);
    // A scheduled message cancelled before it left frees its place.
    const { message } = await later.json();
    expect((await owner.client.request(`${sent}/${message.id}/cancel`, { method: "POST" })).status).toBe(200);
    const again = await owner.client.request(sent, { json: { ...compose, scheduledAt: tomorrow } });
    expect(again.status).toBe(201);
  });

  it("issue 22 row 5: the month's quota (MESSAGES_SHOP_PER_MONTH, 30) refuses a 31st in that month and names the next month", async () => {
    const { shop, owner } = await shopWithOwner(t);
    // A month two months ahead, filled with 30 scheduled messages (one or two a day, under the day's 3).
    const [y, m] = parisDate(new Date()).split("-").map(Number) as [number, number];
    const month = new Date(Date.UTC(y, m - 1 + 2, 1)).toISOString().slice(0, 7);
    const next = new Date(Date.UTC(y, m - 1 + 3, 1)).toISOString().slice(0, 10);
    await t.deps.db.execute(sql`
      insert into messages (shop_id, author_id, audience, segment, title, body, status, scheduled_at)
      select ${shop.id}, ${owner.user.id}, 'customers', '{"kind":"all"}'::jsonb, 'Titre', 'Texte', 'scheduled',
        (${`${month}-01`}::date + (g % 20) * interval '1 day' + interval '10 hours') at time zone 'Europe/Paris'
      from generate_series(1, 30) g`);
    const res = await owner.client.request(`/api/backoffice/shops/${shop.id}/messages`, {
      json: { ...compose, scheduledAt: new Date(`${month}-25T10:00:00Z`).toISOString() },
    });
    expect(res.status).toBe(429);
    expect((await res.json()).message).toBe(
      `Votre boutique a atteint son quota de 30 messages pour ${formatLocalMonth(`${month}-01`)} (3 messages par jour et 30 messages par mois au plus sur cette plateforme). Prochain envoi possible : le ${formatLocalDate(next)} (programmez-le pour ce jour-là).`,
    );
  });

  it("issue 22 row 5: e-mail campaigns have their own quota (NEWSLETTERS_SHOP_PER_DAY, 1): the second of the day is refused", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const campaigns = `/api/backoffice/shops/${shop.id}/newsletters`;
    const campaign = {
      subject: "Nouveautés",
      preheader: "",
      blocks: [{ type: "text", text: "Bonjour" }],
      segment: { kind: "all" },
    };
    expect((await owner.client.request(campaigns, { json: campaign })).status).toBe(201);
    const second = await owner.client.request(campaigns, { json: { ...campaign, subject: "Encore" } });
    expect(second.status).toBe(429);
    expect((await second.json()).message).toMatch(
      /^Votre boutique a atteint son quota de 1 campagne d'e-mails pour le .* \(1 campagne d'e-mails par jour et 8 campagnes d'e-mails par mois au plus sur cette plateforme\)\. Prochain envoi possible : le /,
    );
  });
});

/** A driver that records who it was handed (and delivers). */
function recorder(channel: "email" | "sms") {
  const calls: { messageId: string; userId: string }[] = [];
  const driver: ChannelDriver = {
    channel,
    concurrency: 4,
    async deliver(_ctx, message, delivery) {
      calls.push({ messageId: message.id, userId: delivery.user_id });
      return { status: "delivered" };
    },
  };
  return { driver, calls };
}

async function customers(shopId: string, n: number) {
  const users: string[] = [];
  for (let i = 0; i < n; i++) {
    const u = await t.createUser({ withoutPassword: true });
    await recordVisit(t.deps, { shopId, userId: u.id, at: new Date() });
    await t.deps.db.execute(sql`
      insert into consents (user_id, channel, granted, wording) values (${u.id}, 'email', true, 'test'), (${u.id}, 'sms', true, 'test')`);
    await t.deps.db.execute(
      sql`update profiles set phone = ${`+3361299${String(i).padStart(4, "0")}`} where id = ${u.id}`,
    );
    users.push(u.id);
  }
  return users;
}

async function send(shopId: string | null, authorId: string, drivers: ChannelDriver[]) {
  const [row] = (
    await t.deps.db.execute<{ id: string }>(sql`
      insert into messages (shop_id, author_id, audience, segment, title, body, with_push, with_email, with_sms, status, is_promotional)
      values (${shopId}, ${authorId}, ${shopId ? "customers" : "all_shoppers"}, ${shopId ? '{"kind":"all"}' : null}::jsonb,
        'Titre', 'Texte', false, true, true, 'scheduled', ${shopId !== null})
      returning id`)
  ).rows;
  const id = row!.id;
  await startSending(t.deps.db, id, drivers);
  for (let i = 0; i < 50; i++) {
    if ((await processMessageBatch(t.deps, id, { drivers })).remaining === 0) break;
  }
  await finishIfDone(t.deps.db, id);
  return id;
}

async function outcomes(messageId: string, userId: string) {
  const rows = await t.deps.db.execute<{ channel: string; status: string; detail: string | null }>(sql`
    select channel, status, detail from message_deliveries where message_id = ${messageId} and user_id = ${userId} order by channel`);
  return rows.rows.map((r) => `${r.channel} ${r.status}${r.detail ? ` (${r.detail})` : ""}`);
}

describe("issue 22 row 5: the recipient's frequency cap across channels, in the sending engine", () => {
  it("issue 22 row 5: someone who got 2 messages of a shop today gets no 3rd by any channel (in-app, e-mail, SMS); other shops and the platform still reach them", async () => {
    const owner = await t.createUser({ withoutPassword: true });
    const shop = await createShop(t.deps, { ownerId: owner.id });
    const [ana, ben] = await customers(shop.id, 2);
    const email = recorder("email");
    const sms = recorder("sms");
    const drivers = [email.driver, sms.driver];

    const first = await send(shop.id, owner.id, drivers);
    const second = await send(shop.id, owner.id, drivers);
    const third = await send(shop.id, owner.id, drivers);
    for (const who of [ana!, ben!]) {
      expect(await outcomes(first, who)).toEqual(["email delivered", "inapp delivered", "sms delivered"]);
      expect(await outcomes(second, who)).toEqual(["email delivered", "inapp delivered", "sms delivered"]);
      expect(await outcomes(third, who)).toEqual([
        "email skipped (frequency cap)",
        "inapp skipped (frequency cap)",
        "sms skipped (frequency cap)",
      ]);
    }
    // The drivers were never handed the third message: nothing left by e-mail or SMS.
    expect(email.calls.filter((c) => c.messageId === third)).toEqual([]);
    expect(sms.calls.filter((c) => c.messageId === third)).toEqual([]);
    // The inbox shows two of this shop's messages.
    const inbox = await t.deps.db.execute<{ n: number }>(sql`
      select count(*)::int as n from message_deliveries d join messages m on m.id = d.message_id
      where d.user_id = ${ana!} and d.channel = 'inapp' and d.status = 'delivered' and m.shop_id = ${shop.id}`);
    expect(inbox.rows[0]?.n).toBe(2);

    // The cap is per shop: another shop of theirs still reaches them; a platform announcement is not capped.
    const otherOwner = await t.createUser({ withoutPassword: true });
    const other = await createShop(t.deps, { ownerId: otherOwner.id });
    await recordVisit(t.deps, { shopId: other.id, userId: ana!, at: new Date() });
    const fromOther = await send(other.id, otherOwner.id, drivers);
    expect(await outcomes(fromOther, ana!)).toEqual(["email delivered", "inapp delivered", "sms delivered"]);
    const announcement = await send(null, owner.id, []);
    expect(await outcomes(announcement, ana!)).toEqual(["inapp delivered"]);

    // A day later (the window is a rolling 24 hours) the shop reaches them again.
    await t.deps.db.execute(sql`
      update message_deliveries set delivered_at = delivered_at - interval '25 hours'
      where message_id in (${first}, ${second})`);
    const fourth = await send(shop.id, owner.id, drivers);
    expect(await outcomes(fourth, ana!)).toEqual(["email delivered", "inapp delivered", "sms delivered"]);
  });
});

describe("issue 22 item 2: SMS volume per shop and spikes in the platform console", () => {
  it("issue 22 row 2: the platform admin sees each shop's SMS of the month and the day, its usual day, and an alert on a spike", async () => {
    const spiking = await shopWithOwner(t, { name: "Le Fournil du pic" });
    const steady = await shopWithOwner(t, { name: "La Mie régulière" });
    const small = await shopWithOwner(t, { name: "Le Petit nouveau" });
    const outbox = (shopId: string, segments: number, ago: string) =>
      t.deps.db.execute(sql`
        insert into sms_outbox (shop_id, "to", text, kind, provider, status, segments, created_at)
        values (${shopId}, '+33612345678', 'x', 'campaign', 'outbox', 'kept', ${segments}, now() - ${ago}::interval)`);
    // Usually 2 a day (56 over the 28 days before), 150 today: a spike (≥ 100 and > 5 × 2).
    await outbox(spiking.shop.id, 56, "2 days");
    await outbox(spiking.shop.id, 150, "0 seconds");
    // Usually 50 a day, 150 today: under 5 × 50, no alert.
    await outbox(steady.shop.id, 1400, "2 days");
    await outbox(steady.shop.id, 150, "0 seconds");
    // A new shop's first 60: under the floor of 100, no alert; a failed send does not count.
    await outbox(small.shop.id, 60, "0 seconds");
    await t.deps.db.execute(sql`
      insert into sms_outbox (shop_id, "to", text, kind, provider, status, segments)
      values (${small.shop.id}, '+33612345678', 'x', 'campaign', 'twilio', 'failed', 500)`);
    await t.deps.db.execute(sql`
      insert into sms_budgets (shop_id, monthly_segments) values (${spiking.shop.id}, 1000)`);
    await t.deps.db.execute(sql`
      insert into sms_usage (shop_id, month, segments) values (${spiking.shop.id}, ${parisDate(new Date()).slice(0, 7)}, 206)`);

    const admin = await signedIn(t, { role: "admin" });
    const res = await admin.client.request("/api/backoffice/platform/sms");
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.rule).toEqual({ factor: 5, minSegments: 100, baselineDays: 28 });
    const byId = (id: string) => body.shops.find((s: { id: string }) => s.id === id);
    expect(byId(spiking.shop.id)).toMatchObject({
      monthlySegments: 1000,
      monthSegments: 206,
      todaySegments: 150,
      usualPerDay: 2,
      spike: true,
    });
    expect(byId(steady.shop.id)).toMatchObject({ todaySegments: 150, usualPerDay: 50, spike: false });
    expect(byId(small.shop.id)).toMatchObject({ todaySegments: 60, usualPerDay: 0, spike: false, monthlySegments: 0 });
    // Alerts come first.
    expect(body.shops[0].spike).toBe(true);

    // The alert is also a notice of the back-office pages.
    const notices = (await (await admin.client.request("/api/admin/notices")).json()).notices as {
      id: string;
      message: string;
    }[];
    expect(notices.find((n) => n.id === `sms-spike-${spiking.shop.id}`)?.message).toBe(
      "Pic d'SMS : « Le Fournil du pic » a envoyé 150 SMS aujourd'hui, contre 2 par jour en moyenne sur les 28 jours précédents. Vérifiez ses envois (boîte d'envoi des SMS) et, au besoin, baissez son budget.",
    );
    expect(notices.some((n) => n.id === `sms-spike-${steady.shop.id}`)).toBe(false);

    // Nobody else reads it.
    expect((await spiking.owner.client.request("/api/backoffice/platform/sms")).status).toBe(403);
  });
});
