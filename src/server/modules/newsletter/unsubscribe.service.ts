import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../db/client.ts";
import { EMAIL_WORDING } from "../../../domain/newsletter/consent.ts";
import type { UnsubscribeClaim } from "../messages/unsubscribe-token.ts";

/**
 * E-mail choices reached from an e-mail (no sign-in: the signed token authorises this
 * person's e-mail choices, nothing else). Every choice is a consent row with its wording
 * and time, like /notif's: per shop in `message_preferences` (channel "email"), for
 * every sender in `consents` (channel "email", shared with the profile).
 */

async function latestShopChoice(db: Db, userId: string, shopId: string) {
  const rows = await db.execute<{ granted: boolean }>(sql`
    select granted from message_preferences where user_id = ${userId} and shop_id = ${shopId} and channel = 'email'
    order by created_at desc limit 1`);
  return rows.rows[0]?.granted ?? true;
}

async function globalConsent(db: Db, userId: string) {
  const rows = await db.execute<{ granted: boolean }>(sql`
    select granted from consents where user_id = ${userId} and channel = 'email' order by created_at desc limit 1`);
  return rows.rows[0]?.granted ?? false;
}

/** RFC 8058 one-click: at once, no question asked. Idempotent (a second POST records nothing). */
export async function unsubscribeOneClick(db: Db, claim: UnsubscribeClaim): Promise<{ shopName: string | null }> {
  const user = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${claim.userId}`)).rows[0];
  if (!user) return { shopName: null };
  let shopName: string | null = null;
  let changed = false;
  if (claim.shopId) {
    const shop = (await db.execute<{ name: string }>(sql`select name from shops where id = ${claim.shopId}`)).rows[0];
    if (shop) {
      shopName = shop.name;
      if (await latestShopChoice(db, claim.userId, claim.shopId)) {
        await db.execute(sql`
          insert into message_preferences (user_id, shop_id, channel, granted, wording)
          values (${claim.userId}, ${claim.shopId}, 'email', false, ${EMAIL_WORDING.oneClickShop(shop.name)})`);
        changed = true;
      }
    }
  }
  if (!claim.shopId && (await globalConsent(db, claim.userId))) {
    await db.execute(sql`
      insert into consents (user_id, channel, granted, wording) values (${claim.userId}, 'email', false, ${EMAIL_WORDING.oneClickGlobal})`);
    changed = true;
  }
  if (changed) {
    await db.execute(sql`
      insert into email_events (email, kind, delivery_id, detail)
      values (${user.email.toLowerCase()}, 'unsubscribe',
        (select id from message_deliveries where id = ${claim.deliveryId} and user_id = ${claim.userId}), 'one-click')`);
  }
  return { shopName };
}

/** What the unsubscribe page shows: the address (partly hidden), the global choice, each shop's. */
export async function emailChoicesOf(db: Db, claim: UnsubscribeClaim) {
  const user = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${claim.userId}`)).rows[0];
  if (!user) return null;
  const shops = await db.execute<{ id: string; name: string; granted: boolean }>(sql`
    select s.id, s.name, coalesce((select p.granted from message_preferences p where p.user_id = ${claim.userId}
      and p.shop_id = s.id and p.channel = 'email' order by p.created_at desc limit 1), true) as granted
    from cards c join shops s on s.id = c.shop_id where c.user_id = ${claim.userId} order by s.name`);
  const from = claim.shopId ? shops.rows.find((s) => s.id === claim.shopId) : undefined;
  return {
    email: maskEmail(user.email),
    global: await globalConsent(db, claim.userId),
    shops: shops.rows,
    from: from ?? null,
  };
}
export type EmailChoices = NonNullable<Awaited<ReturnType<typeof emailChoicesOf>>>;

/** "c•••e@exemple.fr": enough to recognise one's address, not to read it off a forwarded e-mail. */
export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  if (local.length <= 2) return `${local[0] ?? ""}•••@${domain}`;
  return `${local[0]}•••${local.at(-1)}@${domain}`;
}

/** The page's form: the global choice and each shop's (a box per shop; an unticked box is not sent). */
export const choicesFormSchema = z.object({
  global: z.enum(["on"]).optional(),
  shops: z.array(z.string().min(1).max(100)).max(500).default([]),
  email: z.array(z.string().min(1).max(100)).max(500).default([]),
});

/** Saves the page's choices: only what changed gets a new consent row. */
export async function saveEmailChoices(db: Db, claim: UnsubscribeClaim, form: z.output<typeof choicesFormSchema>) {
  const current = await emailChoicesOf(db, claim);
  if (!current) return;
  const wantGlobal = form.global === "on";
  if (wantGlobal !== current.global) {
    await db.execute(sql`
      insert into consents (user_id, channel, granted, wording) values (${claim.userId}, 'email', ${wantGlobal}, ${EMAIL_WORDING.global})`);
  }
  const wanted = new Set(form.email);
  for (const shop of current.shops) {
    if (!form.shops.includes(shop.id)) continue;
    const want = wanted.has(shop.id);
    if (want === shop.granted) continue;
    await db.execute(sql`
      insert into message_preferences (user_id, shop_id, channel, granted, wording)
      values (${claim.userId}, ${shop.id}, 'email', ${want}, ${EMAIL_WORDING.shop(shop.name)})`);
  }
}

export const bounceSchema = z.object({
  events: z
    .array(
      z.object({
        email: z.string().trim().toLowerCase().email("Adresse invalide.").max(254),
        type: z.enum(["hard_bounce", "complaint", "soft_bounce"], { error: "Type inconnu." }),
        /** The Message-ID of the e-mail (ours: <deliveryId@host>), to count it in the campaign's figures. */
        messageId: z.string().max(300).optional(),
        detail: z.string().max(500).optional(),
      }),
    )
    .min(1)
    .max(1000),
});

/** The bounce webhook: hard bounces and complaints suppress the address; soft bounces are ignored. */
export async function recordBounces(db: Db, input: z.output<typeof bounceSchema>) {
  let suppressed = 0;
  for (const event of input.events) {
    if (event.type === "soft_bounce") continue;
    const deliveryId = /^<?([A-Za-z0-9-]{1,100})@/.exec(event.messageId ?? "")?.[1] ?? null;
    await db.execute(sql`
      insert into email_events (email, kind, delivery_id, detail)
      values (${event.email}, ${event.type},
        (select d.id from message_deliveries d join "user" u on u.id = d.user_id
         where d.id = ${deliveryId} and d.channel = 'email' and lower(u.email) = ${event.email}),
        ${event.detail ?? "webhook"})`);
    suppressed++;
  }
  return { suppressed };
}
