import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createReward, recordVisit } from "../../src/server/db/factories.ts";
import type { MailResult, OutgoingMail } from "../../src/server/modules/mail/mail.service.ts";
import { recipientsSql } from "../../src/server/modules/messages/audience.ts";
import type { ChannelContext } from "../../src/server/modules/messages/channels/driver.ts";
import { emailDriver } from "../../src/server/modules/messages/channels/email-driver.ts";
import { compileNewsletter, personalize } from "../../src/server/modules/messages/channels/email-render.ts";
import {
  signUnsubscribeToken,
  verifyUnsubscribeToken,
} from "../../src/server/modules/messages/unsubscribe/unsubscribe-token.ts";
import { createTestApp, type TestApp } from "../setup/api.ts";
import { shopWithOwner } from "./shops-helpers.ts";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/** The driver's context with a fake mailer (the rest is the test app's). */
function fakeContext(send: (mail: OutgoingMail) => Promise<MailResult>): ChannelContext {
  return { db: t.deps.db, now: () => new Date(), deps: { ...t.deps, mailer: { send } } };
}

const ctxBase = { shopName: "Boulangerie Léa", shopSlug: "lea", mode: "points" as const, appUrl: "https://fidele.test" };

describe("rendering (MJML) and merge fields", () => {
  it("renders every block to responsive HTML and text; a hostile first name is escaped, never markup", async () => {
    const rewards = [{ id: "r1", title: "Croissant offert", cost: 50, description: "Au beurre" }];
    const compiled = await compileNewsletter(
      {
        subject: "Bonjour {{prenom}}",
        preheader: "Vos {{points}} points vous attendent",
        blocks: [
          { type: "title", text: "Salut {{prenom}} !" },
          { type: "text", text: "Ligne 1\nLigne 2 <b>pas gras</b>" },
          { type: "image", url: "https://exemple.fr/pain.jpg", alt: "Du pain" },
          { type: "button", label: "Voir la boutique", url: "/shop/lea" },
          { type: "reward", rewardId: "r1" },
          { type: "points" },
        ],
      },
      { ...ctxBase, rewards },
    );
    const copy = personalize(
      compiled,
      {
        prenom: '<img src=x onerror="alert(1)">',
        points: "30",
        prochaine_recompense: "Croissant offert (encore 20 points)",
        balance: 30,
        unsubscribeUrl: "https://fidele.test/api/email/unsubscribe/abc.def",
      },
      { mode: "points" },
    );
    expect(copy.html).toContain('lang="fr"');
    expect(copy.html).toContain("@media only screen and (min-width:480px)"); // MJML's responsive columns
    expect(copy.html).toContain("Vos 30 points vous attendent"); // the preheader
    expect(copy.html).toContain("Salut &lt;img src=x onerror=&quot;alert(1)&quot;&gt; !");
    expect(copy.html).not.toContain("<img src=x");
    expect(copy.html).toContain("&lt;b&gt;pas gras&lt;/b&gt;");
    expect(copy.html).toContain('href="https://fidele.test/shop/lea"');
    expect(copy.html).toContain("Croissant offert");
    expect(copy.html).toContain("30 points");
    expect(copy.html).toContain("Prochaine récompense : Croissant offert (encore 20 points)");
    expect(copy.html).toContain('href="https://fidele.test/api/email/unsubscribe/abc.def"');
    expect(copy.html).not.toMatch(/\{\{/);
    expect(copy.text).toContain('## Salut <img src=x onerror="alert(1)"> !'); // plain text: nothing there is markup
    expect(copy.text).toContain("Voir la boutique : https://fidele.test/shop/lea");
    expect(copy.text).toContain("Pour 50 points.");
    expect(copy.text).toContain("Se désabonner ou gérer vos préférences : https://fidele.test/api/email/unsubscribe/abc.def");
    expect(copy.subject).toBe('Bonjour <img src=x onerror="alert(1)">');
  });
});

describe("unsubscribe token", () => {
  it("round-trips, and a changed byte, another secret or a truncated token is refused", () => {
    const secret = "s".repeat(40);
    const claim = { userId: "u_123", shopId: "shop-1", deliveryId: "0d8b9c1e-0000-4000-8000-000000000001" };
    const token = signUnsubscribeToken(secret, claim);
    expect(verifyUnsubscribeToken(secret, token)).toEqual(claim);
    expect(verifyUnsubscribeToken("x".repeat(40), token)).toBeNull();
    expect(verifyUnsubscribeToken(secret, token.slice(0, -2))).toBeNull();
    const [payload, mac] = token.split(".") as [string, string];
    const other = Buffer.from("u_999.shop-1.").toString("base64url");
    expect(verifyUnsubscribeToken(secret, `${other}.${mac}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, `${payload}`)).toBeNull();
    expect(verifyUnsubscribeToken(secret, signUnsubscribeToken(secret, { userId: "u", shopId: null, deliveryId: null }))).toEqual(
      { userId: "u", shopId: null, deliveryId: null },
    );
  });
});

describe("the e-mail channel driver", () => {
  it("sends each recipient their copy with one-click unsubscribe headers; a 5xx suppresses the address", async () => {
    const { shop, owner } = await shopWithOwner(t);
    await createReward(t.deps, { shopId: shop.id, title: "Baguette offerte", cost: 40 });
    const ok = await t.createUser({ withoutPassword: true, firstName: "Inès" });
    const gone = await t.createUser({ withoutPassword: true, email: `gone-${Date.now()}@test.fidele.local` });
    for (const u of [ok, gone]) {
      await recordVisit(t.deps, { shopId: shop.id, userId: u.id, at: new Date(), delta: 15 });
      await t.deps.db.execute(sql`insert into consents (user_id, channel, granted, wording) values (${u.id}, 'email', true, 'oui')`);
    }
    const message = (
      await t.deps.db.execute<{ id: string }>(sql`
        insert into messages (shop_id, author_id, audience, segment, kind, title, body, subject, preheader, blocks, with_push, with_email, status)
        values (${shop.id}, ${owner.user.id}, 'customers', '{"kind":"all"}', 'newsletter', 'Sujet', 'Sujet', 'Bonjour {{prenom}}', '',
          ${JSON.stringify([{ type: "text", text: "Il vous manque : {{prochaine_recompense}}" }])}::jsonb, false, true, 'sending')
        returning id`)
    ).rows[0]!;
    const deliveries = (
      await t.deps.db.execute<{ id: string; user_id: string }>(sql`
        insert into message_deliveries (message_id, user_id, channel, status)
        select ${message.id}, user_id, 'email', 'claimed' from (${recipientsSql({ kind: "customers", shopId: shop.id, segment: { kind: "all" } }, "email")}) r
        returning id, user_id`)
    ).rows;
    expect(deliveries.map((d) => d.user_id).sort()).toEqual([ok.id, gone.id].sort());

    const sent: OutgoingMail[] = [];
    const driver = emailDriver;
    const ctx = fakeContext(async (mail) => {
      sent.push(mail);
      if (mail.to === gone.email) return { status: "failed", permanent: true, error: "550 5.1.1 no such user" };
      return { status: "sent" };
    });
    expect(driver.channel).toBe("email");
    expect(typeof driver.ratePerSecond === "function" && driver.ratePerSecond({ ...t.env, EMAIL_RATE_PER_SECOND: 5 })).toBe(5);
    const head = { id: message.id, shop_id: shop.id, title: "Sujet", body: "Sujet", image_url: null, link_url: null, is_promotional: true };
    const prepared = await driver.prepare!(ctx, head);
    const outcomes = new Map<string, unknown>();
    for (const d of deliveries) outcomes.set(d.user_id, await driver.deliver(ctx, head, d, prepared));

    expect(outcomes.get(ok.id)).toEqual({ status: "delivered" });
    expect(outcomes.get(gone.id)).toMatchObject({ status: "failed", detail: expect.stringContaining("hard bounce") });
    const mine = sent.find((m) => m.to === ok.email)!;
    expect(mine.subject).toBe("Bonjour Inès");
    expect(mine.text).toContain("Il vous manque : Baguette offerte (encore 25 tampons)");
    const delivery = deliveries.find((d) => d.user_id === ok.id)!;
    expect(mine.messageId).toBe(`${delivery.id}@fidele.test`);
    expect(mine.headers?.["List-Unsubscribe-Post"]).toBe("List-Unsubscribe=One-Click");
    expect(mine.html).not.toContain("/api/email/open/"); // no tracking unless the operator turns it on
    const url = /^<(http:\/\/fidele\.test\/api\/email\/unsubscribe\/([^>]+))>$/.exec(mine.headers?.["List-Unsubscribe"] ?? "");
    expect(url).not.toBeNull();
    expect(verifyUnsubscribeToken(t.env.SECRET, url![2]!)).toEqual({ userId: ok.id, shopId: shop.id, deliveryId: delivery.id });

    // The bounced address is suppressed: out of the next audience, and skipped if met again.
    const events = await t.deps.db.execute<{ kind: string }>(sql`select kind from email_events where email = ${gone.email}`);
    expect(events.rows.map((e) => e.kind)).toEqual(["hard_bounce"]);
    const next = await t.deps.db.execute<{ user_id: string }>(
      recipientsSql({ kind: "customers", shopId: shop.id, segment: { kind: "all" } }, "email"),
    );
    expect(next.rows.map((r) => r.user_id)).toEqual([ok.id]);
    const again = deliveries.find((d) => d.user_id === gone.id)!;
    expect(await driver.deliver(ctx, head, again, prepared)).toEqual({ status: "skipped", detail: "suppressed" });
    expect(sent.filter((m) => m.to === gone.email)).toHaveLength(1);
  });

  it("with EMAIL_OPEN_TRACKING on, an invisible image marks the e-mail opened (its token is not an unsubscribe one)", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const u = await t.createUser({ withoutPassword: true });
    await recordVisit(t.deps, { shopId: shop.id, userId: u.id, at: new Date(), delta: 1 });
    await t.deps.db.execute(sql`insert into consents (user_id, channel, granted, wording) values (${u.id}, 'email', true, 'oui')`);
    const m = (
      await t.deps.db.execute<{ id: string }>(sql`
        insert into messages (shop_id, author_id, audience, title, body, with_push, with_email, status)
        values (${shop.id}, ${owner.user.id}, 'customers', 'Titre', 'Texte', false, true, 'sending') returning id`)
    ).rows[0]!;
    const d = (
      await t.deps.db.execute<{ id: string; user_id: string }>(sql`
        insert into message_deliveries (message_id, user_id, channel, status) values (${m.id}, ${u.id}, 'email', 'claimed')
        returning id, user_id`)
    ).rows[0]!;
    const sent: OutgoingMail[] = [];
    const base = fakeContext(async (mail) => {
      sent.push(mail);
      return { status: "sent" };
    });
    const ctx = { ...base, deps: { ...base.deps, env: { ...t.env, EMAIL_OPEN_TRACKING: true } } };
    const head = { id: m.id, shop_id: shop.id, title: "Titre", body: "Texte", image_url: null, link_url: null, is_promotional: true };
    expect(await emailDriver.deliver(ctx, head, d, await emailDriver.prepare!(ctx, head))).toEqual({ status: "delivered" });
    const pixel = /<img src="http:\/\/fidele\.test(\/api\/email\/open\/[^"]+)" width="1" height="1" alt=""/.exec(sent[0]!.html)?.[1];
    expect(pixel).toBeDefined();
    const token = pixel!.split("/").at(-1)!;
    expect(verifyUnsubscribeToken(t.env.SECRET, token)).toBeNull();
    const res = await t.app.request(pixel!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/gif");
    const read = await t.deps.db.execute<{ read_at: Date | null }>(sql`select read_at from message_deliveries where id = ${d.id}`);
    expect(read.rows[0]?.read_at).not.toBeNull();
  });

  it("a transient failure (4xx, server down) is tried again later, not counted as a bounce", async () => {
    const { shop, owner } = await shopWithOwner(t);
    const u = await t.createUser({ withoutPassword: true });
    await recordVisit(t.deps, { shopId: shop.id, userId: u.id, at: new Date(), delta: 1 });
    await t.deps.db.execute(sql`insert into consents (user_id, channel, granted, wording) values (${u.id}, 'email', true, 'oui')`);
    const m = (
      await t.deps.db.execute<{ id: string }>(sql`
        insert into messages (shop_id, author_id, audience, title, body, with_push, with_email, status)
        values (${shop.id}, ${owner.user.id}, 'customers', 'Titre', 'Texte', false, true, 'sending') returning id`)
    ).rows[0]!;
    const d = (
      await t.deps.db.execute<{ id: string; user_id: string }>(sql`
        insert into message_deliveries (message_id, user_id, channel, status) values (${m.id}, ${u.id}, 'email', 'claimed')
        returning id, user_id`)
    ).rows[0]!;
    const driver = emailDriver;
    const ctx = fakeContext(async () => ({ status: "failed", permanent: false, error: "421 try later" }));
    const head = { id: m.id, shop_id: shop.id, title: "Titre", body: "Texte", image_url: null, link_url: null, is_promotional: true };
    const outcome = await driver.deliver(ctx, head, d, await driver.prepare!(ctx, head));
    expect(outcome.status).toBe("deferred");
    const events = await t.deps.db.execute(sql`select 1 from email_events where email = ${u.email}`);
    expect(events.rows).toHaveLength(0);
  });
});
