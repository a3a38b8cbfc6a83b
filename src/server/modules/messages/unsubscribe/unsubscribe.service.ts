import { sql } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../../../db/client.ts";
import { consentSql, preferenceSql, recordConsent, recordPreference } from "../consent.ts";
import { EMAIL_WORDING } from "../../../../domain/messages/consent.ts";
import type { UnsubscribeClaim } from "./unsubscribe-token.ts";

/**
 * E-mail choices reached from an e-mail (no sign-in: the signed token authorises this
 * person's e-mail choices, nothing else). Every choice is a consent row with its wording
 * and time, like /notif's: per shop in `message_preferences` (channel "email"), for
 * every sender in `consents` (channel "email", shared with the profile).
 */

async function latestShopChoice(db: Db, userId: string, shopId: string) {
  const rows = await db.execute<{ granted: boolean }>(
    sql`select ${preferenceSql(sql`${userId}`, sql`${shopId}`, "email")} as granted`,
  );
  return rows.rows[0]?.granted ?? true;
}

async function globalConsent(db: Db, userId: string) {
  const rows = await db.execute<{ granted: boolean }>(sql`select ${consentSql(sql`${userId}`, "email")} as granted`);
  return rows.rows[0]?.granted ?? false;
}

/** The campaign's "unsubscribed" figure: an event tied to the delivery the link came from (if it is this person's). */
async function recordUnsubscribe(db: Db, email: string, claim: UnsubscribeClaim, detail: "one-click" | "page") {
  await db.execute(sql`
    insert into email_events (email, kind, delivery_id, detail)
    values (${email.toLowerCase()}, 'unsubscribe',
      (select id from message_deliveries where id = ${claim.deliveryId} and user_id = ${claim.userId}), ${detail})`);
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
      const wording = EMAIL_WORDING.oneClickShop(shop.name);
      const choice = { userId: claim.userId, shopId: claim.shopId, channel: "email", granted: false, wording } as const;
      changed = await recordPreference(db, choice, { ifChanged: true });
    }
  }
  if (!claim.shopId) {
    const choice = {
      userId: claim.userId,
      channel: "email",
      granted: false,
      wording: EMAIL_WORDING.oneClickGlobal,
    } as const;
    changed = await recordConsent(db, choice, { ifChanged: true });
  }
  if (changed) await recordUnsubscribe(db, user.email, claim, "one-click");
  return { shopName };
}

/**
 * What the unsubscribe page shows: only what its token is about (issue 22, row 13) — the e-mails of the shop that
 * sent it (or, from the platform, Fidèle's) — and the e-mail consent for every sender, which the page can withdraw.
 * Never the other shops where the person has a card: whoever holds a forwarded e-mail learns nothing more.
 */
export async function emailChoicesOf(db: Db, claim: UnsubscribeClaim) {
  const user = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${claim.userId}`)).rows[0];
  if (!user) return null;
  const shop = claim.shopId
    ? (await db.execute<{ id: string; name: string }>(sql`select id, name from shops where id = ${claim.shopId}`))
        .rows[0]
    : undefined;
  return {
    email: maskEmail(user.email),
    global: await globalConsent(db, claim.userId),
    from: shop ? { ...shop, granted: await latestShopChoice(db, claim.userId, shop.id) } : null,
  };
}
export type EmailChoices = NonNullable<Awaited<ReturnType<typeof emailChoicesOf>>>;

/** "c•••e@exemple.fr": enough to recognise one's address, not to read it off a forwarded e-mail. */
function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  if (local.length <= 2) return `${local[0] ?? ""}•••@${domain}`;
  return `${local[0]}•••${local.at(-1)}@${domain}`;
}

/**
 * The page's second form: every marketing e-mail withdrawn at once. A token can only withdraw (issue 22, row 13):
 * the page is reachable by anyone the e-mail is forwarded to, and its POST is exempt from the same-site check
 * (RFC 8058), so giving consent back goes through /notif, signed in. There is no field that grants.
 */
export const withdrawFormSchema = z.object({ withdraw: z.literal("all") });

/** Withdraws the e-mail consent for every sender (idempotent: recorded once). */
export async function withdrawAllEmail(db: Db, claim: UnsubscribeClaim) {
  const user = (await db.execute<{ email: string }>(sql`select email from "user" where id = ${claim.userId}`)).rows[0];
  if (!user) return;
  const choice = {
    userId: claim.userId,
    channel: "email",
    granted: false,
    wording: EMAIL_WORDING.withdrawAllFromEmail,
  } as const;
  if (await recordConsent(db, choice, { ifChanged: true })) await recordUnsubscribe(db, user.email, claim, "page");
}

/** The open-tracking image was fetched (EMAIL_OPEN_TRACKING): that e-mail is marked read, once. */
export async function markEmailOpened(db: Db, claim: UnsubscribeClaim) {
  if (!claim.deliveryId) return;
  await db.execute(sql`
    update message_deliveries set read_at = coalesce(read_at, now())
    where id = ${claim.deliveryId} and user_id = ${claim.userId} and channel = 'email'`);
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
