import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward } from "../../src/server/db/factories.ts";
import { EMAIL_WORDING } from "../../src/domain/messages/consent.ts";
import { MERGE_FIELD_IN_URL_FR } from "../../src/domain/schemas/links.ts";
import { finishIfDone, processMessageBatch } from "../../src/server/modules/messages/sending.service.ts";
import { signUnsubscribeToken, unsubscribeUrl } from "../../src/server/modules/messages/unsubscribe/unsubscribe-token.ts";
import { createTestApp, type TestApp, UNCAPPED_SENDING } from "../setup/api.ts";
import { type CapturedMail, htmlOf, startSmtp } from "../setup/smtp.ts";
import { type Client, shopWithOwner, signedIn } from "./shops-helpers.ts";

/**
 * Newsletters over a real local SMTP server: only customers who accepted e-mail from the
 * shop receive them, each with RFC 8058 one-click unsubscribe; the POST a mail client makes
 * (form-encoded, no Origin, no cookie) unsubscribes at once and the next campaign skips the
 * address; an SMTP 5xx and the bounce webhook suppress an address; the campaign's figures.
 */
const WEBHOOK_SECRET = "w".repeat(32);
let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp({ rejectRecipient: (address) => address.startsWith("inexistant-") });
  t = await createTestApp({
    env: {
      ...UNCAPPED_SENDING,
      SMTP_URL: smtp.url,
      EMAIL_RATE_PER_SECOND: "1000",
      EMAIL_WEBHOOK_SECRET: WEBHOOK_SECRET,
    },
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

type Figures = { total: number; sent: number; failed: number; skipped: number; bounced: number; unsubscribed: number };
type Campaign = { id: string; status: string; progress: number; counts: Figures };

/**
 * `n` customers of the shop, made in one statement each: their e-mail consent (null: never asked),
 * a refusal for this shop, an unverified address. Card balances 0, no ledger rows (consistent).
 */
async function customers(
  shopId: string,
  n: number,
  prefix: string,
  opts: { consent?: boolean | null; verified?: boolean; shopRefused?: boolean } = {},
) {
  const tag = `${prefix}-${randomUUID().slice(0, 8)}`;
  const rows = await t.deps.db.execute<{ id: string; email: string }>(sql`
    insert into "user" (id, name, email, email_verified)
    select gen_random_uuid()::text, 'Client ' || i, ${tag} || '-' || i || '@test.fidele.local', ${opts.verified ?? true}
    from generate_series(1, ${n}) i returning id, email`);
  const ids = rows.rows.map((r) => r.id);
  const list = sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
  await t.deps.db.execute(sql`insert into profiles (id, first_name) select id, 'Prénom' from "user" where id in (${list})`);
  await t.deps.db.execute(sql`insert into cards (shop_id, user_id) select ${shopId}, id from "user" where id in (${list})`);
  if (opts.consent !== null) {
    await t.deps.db.execute(sql`
      insert into consents (user_id, channel, granted, wording) select id, 'email', ${opts.consent ?? true}, 'E-mails' from "user" where id in (${list})`);
  }
  if (opts.shopRefused) {
    await t.deps.db.execute(sql`
      insert into message_preferences (user_id, shop_id, channel, granted, wording)
      select id, ${shopId}, 'email', false, 'Non' from "user" where id in (${list})`);
  }
  return rows.rows;
}

async function drain(messageId: string) {
  for (let i = 0; i < 200; i++) {
    const r = await processMessageBatch(t.deps, messageId, { limit: 100 });
    if (r.remaining === 0) break;
  }
  await finishIfDone(t.deps.db, messageId);
}

const content = (subject: string) => ({
  subject,
  preheader: "Des nouvelles de la boutique",
  blocks: [
    { type: "title", text: "Bonjour {{prenom}}" },
    { type: "text", text: "Vous avez {{points}} points." },
  ],
});

async function campaign(owner: Client, shopId: string, body: Record<string, unknown>) {
  const res = await owner.request(`/api/backoffice/shops/${shopId}/newsletters`, { json: body });
  const json = (await res.json()) as { newsletter: Campaign; error?: { message: string } };
  return { res, campaign: json.newsletter, json };
}

async function figures(owner: Client, shopId: string, id: string) {
  const res = await owner.request(`/api/backoffice/shops/${shopId}/newsletters/${id}`);
  return ((await res.json()) as { newsletter: Campaign }).newsletter;
}

const mailsFor = (subject: string) => smtp.mails.filter((m) => m.subject === subject);
const header = (mail: CapturedMail, name: string) =>
  new RegExp(`^${name}: (.*(?:\\r\\n[ \\t].*)*)`, "mi").exec(mail.raw)?.[1]?.replace(/\r\n[ \t]+/g, " ") ?? null;

describe("newsletters", () => {
  it("reach only the customers who accepted e-mail from the shop, with one-click unsubscribe; the unsubscribe POST stops the next one", async () => {
    const {
      shop,
      owner: { client: owner },
    } = await shopWithOwner(t);
    const yes = await customers(shop.id, 6, "oui");
    const never = await customers(shop.id, 2, "jamais", { consent: null });
    const withdrawn = await customers(shop.id, 2, "retire", { consent: false });
    const refused = await customers(shop.id, 2, "refuse", { shopRefused: true });
    const unverified = await customers(shop.id, 2, "nonverifie", { verified: false });

    const count = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/audience`, { json: { segment: { kind: "all" } } });
    expect(await count.json()).toEqual({ email: 6 });

    const first = await campaign(owner, shop.id, { ...content("Les nouveautés de mars"), segment: { kind: "all" } });
    expect(first.res.status).toBe(201);
    expect(first.campaign.status).toBe("sending");
    expect(first.campaign.counts.total).toBe(6);
    // A newsletter is an e-mail only: nothing lands in the in-app inbox.
    const inapp = await t.deps.db.execute(
      sql`select 1 from message_deliveries where message_id = ${first.campaign.id} and channel <> 'email'`,
    );
    expect(inapp.rows).toHaveLength(0);
    await drain(first.campaign.id);

    const got = mailsFor("Les nouveautés de mars");
    expect(got.flatMap((m) => m.to).sort()).toEqual(yes.map((u) => u.email).sort());
    for (const other of [...never, ...withdrawn, ...refused, ...unverified]) {
      expect(smtp.mails.some((m) => m.to.includes(other.email))).toBe(false);
    }
    const mail = got[0]!;
    expect(mail.text).toContain("Bonjour Prénom");
    expect(mail.text).toContain("Vous avez 0 points.");
    expect(mail.raw).toMatch(/Content-Type: text\/html/i);
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const unsubscribe = /^<(https?:\/\/[^>]+)>$/.exec(header(mail, "List-Unsubscribe") ?? "")?.[1];
    expect(unsubscribe).toMatch(/^http:\/\/fidele\.test\/api\/email\/unsubscribe\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(mail.text).toContain(unsubscribe);

    const done = await figures(owner, shop.id, first.campaign.id);
    expect(done).toMatchObject({ status: "sent", progress: 100 });
    expect(done.counts).toMatchObject({ total: 6, sent: 6, failed: 0, bounced: 0, unsubscribed: 0 });

    // The GET shows the page (French, the shop named), and changes nothing.
    const path = new URL(unsubscribe!).pathname;
    const page = await t.client().request(path);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('lang="fr"');
    expect(html).toContain(`Ne plus recevoir les e-mails de ${shop.name}`);
    expect(html).toContain("Me désabonner de tous les e-mails");

    // RFC 8058 §3.2, as a mail client makes it: a form POST, no Origin, no cookie, no Sec-Fetch-Site.
    const reader = mail.to[0]!;
    const post = await t.app.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(post.status).toBe(200);
    const pref = await t.deps.db.execute<{ granted: boolean; wording: string }>(sql`
      select p.granted, p.wording from message_preferences p join "user" u on u.id = p.user_id
      where u.email = ${reader} and p.shop_id = ${shop.id} and p.channel = 'email'`);
    expect(pref.rows).toEqual([
      { granted: false, wording: `Désabonnement des e-mails de ${shop.name} en un clic, depuis un e-mail (RFC 8058).` },
    ]);
    // Made twice (a client retrying): recorded once.
    await t.app.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect((await figures(owner, shop.id, first.campaign.id)).counts.unsubscribed).toBe(1);

    // The next campaign: everyone as before but the one who unsubscribed.
    const second = await campaign(owner, shop.id, { ...content("Les nouveautés d'avril"), segment: { kind: "all" } });
    expect(second.campaign.counts.total).toBe(5);
    await drain(second.campaign.id);
    const next = mailsFor("Les nouveautés d'avril").flatMap((m) => m.to);
    expect(next).toHaveLength(5);
    expect(next).not.toContain(reader);
  });

  it("/notif's e-mail choices (for every shop, and per shop) decide the audience; the composer's e-mail tick sends the message by e-mail", async () => {
    const {
      shop,
      owner: { client: owner },
    } = await shopWithOwner(t);
    const { user, client } = await signedIn(t);
    await t.deps.db.execute(sql`insert into cards (shop_id, user_id) values (${shop.id}, ${user.id})`);
    const audience = async () =>
      ((await (await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/audience`, { json: {} })).json()) as { email: number })
        .email;
    const choose = async (shopId: string | null, granted: boolean) => {
      const res = await client.request("/api/messages/preferences", {
        method: "PUT",
        json: { shopId, channel: "email", granted },
      });
      expect(res.status).toBe(200);
      return (await res.json()) as { channels: { email: boolean }; shops: { id: string; email: boolean }[] };
    };
    expect(await audience()).toBe(0); // never asked: no e-mail
    const on = await choose(null, true);
    expect(on.channels.email).toBe(true);
    expect(await audience()).toBe(1);
    const off = await choose(shop.id, false);
    expect(off.shops.find((s) => s.id === shop.id)?.email).toBe(false);
    expect(await audience()).toBe(0);
    await choose(shop.id, true);
    const consent = await t.deps.db.execute<{ wording: string }>(
      sql`select wording from consents where user_id = ${user.id} and channel = 'email'`,
    );
    expect(consent.rows.map((r) => r.wording)).toEqual([
      "Recevoir par e-mail les nouveautés et promotions des boutiques dont je suis client et de Fidèle.",
    ]);

    // The composer: in-app as always, and by e-mail to those who accept it, rendered from the title and text.
    const count = await owner.request(`/api/backoffice/shops/${shop.id}/messages/audience`, {
      json: { segment: { kind: "all" }, push: false, email: true },
    });
    expect(await count.json()).toEqual({ total: 1, push: 0, email: 1, sms: 0 });
    const title = `Soldes ${randomUUID().slice(0, 6)}`;
    const res = await owner.request(`/api/backoffice/shops/${shop.id}/messages`, {
      json: { title, body: "Tout à -20 % samedi.", push: false, email: true, segment: { kind: "all" } },
    });
    expect(res.status).toBe(201);
    const { message } = (await res.json()) as { message: { id: string; withEmail: boolean } };
    expect(message.withEmail).toBe(true);
    await drain(message.id);
    const mail = await smtp.waitForMail(user.email, (m) => m.subject === title);
    expect(mail.text).toContain("Tout à -20 % samedi.");
    expect(header(mail, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");
    const channels = await t.deps.db.execute<{ channel: string; status: string }>(
      sql`select channel, status from message_deliveries where message_id = ${message.id} order by channel`,
    );
    expect(channels.rows).toEqual([
      { channel: "email", status: "delivered" },
      { channel: "inapp", status: "delivered" },
    ]);
  });

  it("a forged or altered unsubscribe address changes nothing; the POST without the one-click body is refused", async () => {
    const bad = await t.app.request("/api/email/unsubscribe/AAAA.BBBB", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(bad.status).toBe(404);
    expect(await bad.text()).toContain("Ce lien de désabonnement n'est pas valide");
    // The exemption is narrow: another /api path posted the same way is still refused as cross-site input.
    const other = await t.app.request("/api/messages/preferences", {
      method: "PUT",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(other.status).toBe(415);
  });

  it("issue 22 row 13: a forwarded token only withdraws (a cross-site POST cannot turn consent on) and its page names only its shop", async () => {
    const tag = randomUUID().slice(0, 6);
    const { shop } = await shopWithOwner(t, { name: `Fromagerie ${tag}` });
    const other = await shopWithOwner(t, { name: `Librairie ${tag}` });
    const [u] = await customers(shop.id, 1, "jeton", { consent: false, shopRefused: true });
    await t.deps.db.execute(sql`insert into cards (shop_id, user_id) values (${other.shop.id}, ${u!.id})`);
    const token = signUnsubscribeToken(t.env.SECRET, { userId: u!.id, shopId: shop.id, deliveryId: null });
    const path = new URL(unsubscribeUrl(t.env.APP_URL, token)).pathname;
    const granted = async () =>
      (
        await t.deps.db.execute<{ n: number }>(sql`
          select ((select count(*) from consents where user_id = ${u!.id} and granted)
            + (select count(*) from message_preferences where user_id = ${u!.id} and granted))::int as n`)
      ).rows[0]!.n;

    // The page: the token's shop only, nothing that grants, and the way to choose again (/notif, signed in).
    const page = await (await t.client().request(path)).text();
    expect(page).toContain(`Vous ne recevez plus les e-mails de Fromagerie ${tag}.`);
    expect(page).not.toContain(`Librairie ${tag}`);
    expect(page).not.toContain(other.shop.id);
    expect(page).not.toMatch(/type="checkbox"/);
    expect(page).toContain('href="/notif"');

    // Forged from another site with the forwarded token: the old form's granting fields, or anything but a withdrawal.
    const crossSite = {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: "https://evil.example",
      "Sec-Fetch-Site": "cross-site",
    };
    for (const body of [
      `global=on&shops=${shop.id}&email=${shop.id}&shops=${other.shop.id}&email=${other.shop.id}`,
      "global=on",
      "withdraw=none",
      "withdraw=all&global=on",
    ]) {
      const res = await t.app.request(`${path}/preferences`, { method: "POST", headers: crossSite, body });
      expect(res.status === 400 || res.status === 303).toBe(true);
      expect(await granted()).toBe(0);
    }
    const oneClick = await t.app.request(path, {
      method: "POST",
      headers: crossSite,
      body: "List-Unsubscribe=One-Click&global=on",
    });
    expect(oneClick.status).toBe(200);
    expect(await granted()).toBe(0);

    // What a token may do, it does: with e-mail accepted, its page's second button withdraws every e-mail.
    await t.deps.db.execute(sql`
      insert into consents (user_id, channel, granted, wording) values (${u!.id}, 'email', true, 'E-mails')`);
    const withdraw = await t.app.request(`${path}/preferences`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "text/html" },
      body: "withdraw=all",
    });
    expect(withdraw.status).toBe(303);
    expect(withdraw.headers.get("location")).toBe(`${path}?enregistre=1`);
    const latest = await t.deps.db.execute<{ granted: boolean; wording: string }>(sql`
      select granted, wording from consents where user_id = ${u!.id} and channel = 'email' order by created_at desc limit 1`);
    expect(latest.rows).toEqual([{ granted: false, wording: EMAIL_WORDING.withdrawAllFromEmail }]);
    const after = await (await t.client().request(`${path}?enregistre=1`)).text();
    expect(after).toContain("vous ne recevrez plus d'e-mails des boutiques ni de Fidèle");
  });

  it("issue 22 row 12: merge fields fill text only, in one pass: a first name {{__unsubscribe}} stays literal; a merge field in an address is refused at save and never filled", async () => {
    const {
      shop,
      owner: { client: owner },
    } = await shopWithOwner(t);
    const tracker = "https://tracker.example/p.gif?who={{prenom}}&pts={{points}}";
    const refused = [
      { type: "image", url: tracker, alt: "" },
      { type: "button", label: "Voir", url: "https://tracker.example/c?who={{ prenom }}" },
      { type: "button", label: "Voir", url: "/shop/x?who={{prenom}}" },
    ];
    for (const block of refused) {
      const body = { subject: "Nouveautés", preheader: "", blocks: [{ type: "text", text: "Bonjour" }, block] };
      for (const path of ["", "/preview", "/test"]) {
        const res = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters${path}`, {
          json: path === "" ? { ...body, segment: { kind: "all" } } : body,
        });
        expect(res.status).toBe(400);
        expect(((await res.json()) as { message: string }).message).toContain(MERGE_FIELD_IN_URL_FR);
      }
    }

    // A reader whose first name is an engine field: filled once, never read again.
    const [reader] = await customers(shop.id, 1, "fusion");
    await t.deps.db.execute(sql`update profiles set first_name = '{{__unsubscribe}}' where id = ${reader!.id}`);
    // A balance of 42 through the ledger (other test files check, database-wide, that balances and ledger agree).
    await t.deps.db.execute(sql`
      insert into ledger_entries (card_id, shop_id, kind, delta, reason)
      select id, shop_id, 'bonus', 42 - balance, 'test' from cards
      where user_id = ${reader!.id} and shop_id = ${shop.id} and balance <> 42`);
    const subject = `Bonjour {{prenom}} ${randomUUID().slice(0, 6)}`;
    const sent = await campaign(owner, shop.id, {
      subject,
      preheader: "",
      blocks: [
        { type: "title", text: "Bonjour {{prenom}}" },
        { type: "image", url: "https://cdn.example/photo.jpg", alt: "" },
      ],
      segment: { kind: "all" },
    });
    expect(sent.res.status).toBe(201);
    // A campaign stored before the rule, its image a tracking pixel: sent with the braces encoded, never filled.
    await t.deps.db.execute(sql`
      update messages set blocks = jsonb_set(blocks::jsonb, '{1,url}', to_jsonb(${tracker}::text)) where id = ${sent.campaign.id}`);
    await drain(sent.campaign.id);
    const mail = await smtp.waitForMail(reader!.email, (m) => m.subject.startsWith("Bonjour"));
    expect(mail.subject).toBe(subject.replace("{{prenom}}", "{{__unsubscribe}}"));
    expect(mail.text).toContain("## Bonjour {{__unsubscribe}}");
    const html = htmlOf(mail);
    expect(html).toContain("Bonjour {{__unsubscribe}}");
    // The unsubscribe address appears where the template put it, not where the name was.
    expect(mail.text.match(/\/api\/email\/unsubscribe\//g)).toHaveLength(1);
    expect(html).toContain("https://tracker.example/p.gif?who=%7B%7Bprenom%7D%7D&amp;pts=%7B%7Bpoints%7D%7D");
    expect(html).not.toMatch(/who=(Camille|Prénom|\{\{__)/);
    expect(html).not.toMatch(/pts=42/);
  });

  it("an SMTP 5xx and the bounce webhook suppress an address: counted as bounced, never mailed again", async () => {
    const {
      shop,
      owner: { client: owner },
    } = await shopWithOwner(t);
    const ok = await customers(shop.id, 3, "ok");
    const missing = await customers(shop.id, 1, "inexistant");
    const sent = await campaign(owner, shop.id, { ...content("Rebonds"), segment: { kind: "all" } });
    await drain(sent.campaign.id);
    expect(mailsFor("Rebonds")).toHaveLength(3);

    // The provider reports a complaint for one delivered address (its Message-ID is ours).
    const complained = ok[0]!;
    const delivery = (
      await t.deps.db.execute<{ id: string }>(sql`
        select d.id from message_deliveries d where d.message_id = ${sent.campaign.id} and d.user_id = ${complained.id}`)
    ).rows[0]!;
    const hook = (auth: string) =>
      t.app.request("/api/email/bounces", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${auth}` },
        body: JSON.stringify({
          events: [{ email: complained.email.toUpperCase(), type: "complaint", messageId: `<${delivery.id}@fidele.test>` }],
        }),
      });
    expect((await hook("x".repeat(32))).status).toBe(401);
    const res = await hook(WEBHOOK_SECRET);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ suppressed: 1 });

    const f = await figures(owner, shop.id, sent.campaign.id);
    expect(f.counts).toMatchObject({ total: 4, sent: 3, failed: 1, bounced: 2 });
    const count = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/audience`, { json: {} });
    expect(await count.json()).toEqual({ email: 2 });
    const again = await campaign(owner, shop.id, { ...content("Après rebonds"), segment: { kind: "all" } });
    await drain(again.campaign.id);
    const to = mailsFor("Après rebonds").flatMap((m) => m.to);
    expect(to.sort()).toEqual([ok[1]!.email, ok[2]!.email].sort());
    expect(to).not.toContain(missing[0]!.email);
  });

  it("preview and test send: the owner's own copy, with the real headers; another shop's campaigns are out of reach", async () => {
    const {
      shop,
      owner: { client: owner },
    } = await shopWithOwner(t);
    const reward = await createReward(t.deps, { shopId: shop.id, title: "Tarte offerte", cost: 30 });
    const body = {
      subject: "Pour vous, {{prenom}}",
      preheader: "",
      blocks: [{ type: "reward", rewardId: reward.id }, { type: "points" }],
    };
    const preview = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/preview`, { json: body });
    expect(preview.status).toBe(200);
    const p = (await preview.json()) as { subject: string; html: string; text: string };
    expect(p.subject).toBe("Pour vous, Camille");
    expect(p.html).toContain("Tarte offerte");
    expect(p.text).toContain("Prochaine récompense : Tarte offerte");

    const test = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/test`, { json: body });
    expect(test.status).toBe(200);
    const mine = await smtp.waitForMail((await test.json()).sentTo as string, (m) => m.subject.startsWith("[Test]"));
    expect(mine.subject).toBe("[Test] Pour vous, Camille");
    expect(header(mine, "List-Unsubscribe-Post")).toBe("List-Unsubscribe=One-Click");

    const badReward = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/preview`, {
      json: { ...body, blocks: [{ type: "reward", rewardId: randomUUID() }] },
    });
    expect(badReward.status).toBe(400);
    expect(((await badReward.json()) as { message: string }).message).toBe(
      "Cette récompense n'est plus proposée par votre boutique.",
    );

    const created = await campaign(owner, shop.id, {
      ...content("Plus tard"),
      segment: { kind: "all" },
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(created.campaign.status).toBe("scheduled");
    const stranger = await shopWithOwner(t);
    const peek = await stranger.owner.client.request(`/api/backoffice/shops/${stranger.shop.id}/newsletters/${created.campaign.id}`);
    expect(peek.status).toBe(404);
    const cancel = await stranger.owner.client.request(
      `/api/backoffice/shops/${stranger.shop.id}/newsletters/${created.campaign.id}/cancel`,
      { method: "POST" },
    );
    expect(cancel.status).toBe(404);
    const mineCancel = await owner.request(`/api/backoffice/shops/${shop.id}/newsletters/${created.campaign.id}/cancel`, {
      method: "POST",
    });
    expect(((await mineCancel.json()) as { newsletter: Campaign }).newsletter.status).toBe("cancelled");
  });
});
