import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { CONSENT_WORDING } from "../../../domain/schemas/accounts.ts";
import { formatPhone } from "../../../domain/messages/phone.ts";
import { buildPushPayload, WELCOME_PUSH } from "../../../domain/messages/payload.ts";
import type { Db } from "../../db/client.ts";
import type { Logger } from "../../lib/logger.ts";
import { checkDestination, type OutboundPolicy } from "../../lib/outbound.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { EMAIL_WORDING, PREFERENCE_WORDING, shopPreferenceWording } from "../../../domain/messages/consent.ts";
import type { PushSender } from "./channels/push.ts";
import { consentSql, preferenceSql, recordConsent, recordPreference } from "./consent.ts";
import { removeSubscription } from "./channels/push-driver.ts";

/**
 * /notif: what a shopper accepts, per channel and per shop. Every choice is a new
 * row with the wording shown and its time (GDPR art. 7(1): consent must be
 * demonstrable). The push choice for every sender is the profile's push consent
 * (table `consents`), so the two screens never disagree.
 */
export const preferenceSchema = z.object({
  shopId: z.string().min(1).max(100).nullable(),
  channel: z.enum(["inapp", "push", "email", "sms"], { error: "Canal inconnu." }),
  granted: z.boolean({ error: "Choix manquant." }),
});

const base64url = z
  .string()
  .min(8)
  .max(300)
  .regex(/^[A-Za-z0-9_-]+=*$/, "Clé invalide.");
export const subscriptionSchema = z.object({
  deviceId: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "Appareil inconnu."),
  subscription: z.object({
    endpoint: z.url({ protocol: /^https$/, error: "Adresse d'abonnement invalide." }).max(2000),
    keys: z.object({ p256dh: base64url, auth: base64url }),
  }),
});

export const renewSchema = z.object({
  oldEndpoint: z.url({ protocol: /^https$/, error: "Adresse d'abonnement invalide." }).max(2000),
  subscription: subscriptionSchema.shape.subscription,
});

/** The service worker's pushsubscriptionchange: the browser renewed this device's subscription. */
export async function renewSubscription(
  db: Db,
  userId: string,
  input: z.output<typeof renewSchema>,
  policy: OutboundPolicy,
) {
  const { endpoint, keys } = input.subscription;
  assertPushEndpoint(endpoint, policy);
  await enforceThrottle(db, `push-subscribe:${userId}`, SUBSCRIBE_THROTTLE.windowSeconds, SUBSCRIBE_THROTTLE.max);
  const rows = await db.execute<{ id: string }>(sql`
    update push_subscriptions set endpoint = ${endpoint}, p256dh = ${keys.p256dh}, auth = ${keys.auth}, checked_at = now()
    where endpoint = ${input.oldEndpoint} and user_id = ${userId}
      and not exists (select 1 from push_subscriptions o where o.endpoint = ${endpoint} and o.endpoint <> ${input.oldEndpoint})
    returning id`);
  return { renewed: rows.rows.length > 0 };
}

export async function getPreferences(db: Db, userId: string, publicKey: string) {
  const me = sql`${userId}`;
  const channels = await db.execute<{
    inapp: boolean;
    push: boolean;
    email: boolean;
    sms: boolean;
    phone: string | null;
  }>(sql`
    select ${preferenceSql(me, null, "inapp")} as inapp, ${consentSql(me, "push")} as push,
      ${consentSql(me, "email")} as email, ${consentSql(me, "sms")} as sms,
      (select f.phone from profiles f where f.id = ${userId}) as phone`);
  const shops = await db.execute<{
    id: string;
    name: string;
    inapp: boolean;
    push: boolean;
    email: boolean;
    sms: boolean;
  }>(sql`
    select s.id, s.name, ${preferenceSql(me, sql`s.id`, "email")} as email, ${preferenceSql(me, sql`s.id`, "inapp")} as inapp,
      ${preferenceSql(me, sql`s.id`, "push")} as push, ${preferenceSql(me, sql`s.id`, "sms")} as sms
    from cards c join shops s on s.id = c.shop_id where c.user_id = ${userId} order by s.name`);
  const devices = await db.execute<{ device_id: string }>(
    sql`select device_id from push_subscriptions where user_id = ${userId}`,
  );
  const row = channels.rows[0];
  return {
    channels: {
      inapp: row?.inapp ?? true,
      push: row?.push ?? false,
      email: row?.email ?? false,
      sms: row?.sms ?? false,
    },
    /** The mobile number SMS go to, set in the profile, as people read it ("06 12 34 56 78"); null: none. */
    phone: row?.phone ? formatPhone(row.phone) : null,
    shops: shops.rows,
    devices: devices.rows.map((d) => d.device_id),
    wording: {
      inapp: PREFERENCE_WORDING.inapp,
      push: PREFERENCE_WORDING.push,
      email: EMAIL_WORDING.global,
      sms: CONSENT_WORDING.sms,
    },
    vapidPublicKey: publicKey,
  };
}

export async function setPreference(db: Db, userId: string, input: z.output<typeof preferenceSchema>) {
  if (input.shopId === null && input.channel === "push") {
    await recordPushConsent(db, userId, input.granted);
    return;
  }
  // E-mail for every sender is the profile's e-mail consent (table consents), like push.
  if (input.shopId === null && input.channel === "email") {
    await recordConsent(db, { userId, channel: "email", granted: input.granted, wording: EMAIL_WORDING.global });
    return;
  }
  if (input.shopId === null && input.channel === "sms") {
    await recordSmsConsent(db, userId, input.granted);
    return;
  }
  let wording: string = PREFERENCE_WORDING.inapp;
  if (input.shopId !== null) {
    const shop = await db.execute<{ name: string }>(sql`
      select s.name from cards c join shops s on s.id = c.shop_id where c.user_id = ${userId} and s.id = ${input.shopId}`);
    const name = shop.rows[0]?.name;
    if (!name) throw new AppError("NOT_FOUND", { userMessage: "Vous n'êtes pas client de cette boutique." });
    wording = shopPreferenceWording(input.channel, name);
  }
  await recordPreference(db, { userId, ...input, wording });
}

/** The SMS consent for every sender is the profile's (table `consents`, the profile's wording); it needs a number. */
async function recordSmsConsent(db: Db, userId: string, granted: boolean) {
  if (granted) {
    const phone = await db.execute<{ phone: string | null }>(sql`select phone from profiles where id = ${userId}`);
    if (!phone.rows[0]?.phone) {
      throw new AppError("VALIDATION", {
        userMessage: "Ajoutez d'abord votre numéro de mobile dans votre profil pour recevoir des SMS.",
      });
    }
  }
  await recordConsent(db, { userId, channel: "sms", granted, wording: CONSENT_WORDING.sms });
}

const recordPushConsent = (db: Db, userId: string, granted: boolean) =>
  recordConsent(db, { userId, channel: "push", granted, wording: PREFERENCE_WORDING.push });

/** A person's devices with push on (issue 22): at most this many; subscribing one more drops the oldest. */
export const MAX_DEVICES_PER_ACCOUNT = 10;
/** Subscriptions (new, weekly checks, renewals) per account: this many an hour. */
export const SUBSCRIBE_THROTTLE = { windowSeconds: 3600, max: 10 } as const;

const ENDPOINT_REFUSED = "Adresse d'abonnement invalide : ce n'est pas un service de notifications connu.";

/** The endpoint is a push service's (no network here: nothing is connected to while the person waits). */
function assertPushEndpoint(endpoint: string, policy: OutboundPolicy) {
  if (!checkDestination(endpoint, policy).ok) throw new AppError("VALIDATION", { userMessage: ENDPOINT_REFUSED });
}

/**
 * This device turns push on: its subscription is kept (one per device: a new one
 * replaces the old), the push consent recorded, and a welcome push sent (SPEC §7.3).
 * `recheck`: the weekly check or a pushsubscriptionchange — no consent row, no welcome.
 *
 * Issue 22: the answer is the same whatever the push service does — the welcome leaves
 * after the answer, through the outbound door, and its fate is only logged. A row of
 * another account (same device id or endpoint) is never changed or dropped, unless the
 * caller holds that very subscription (endpoint and both keys equal: the same browser,
 * signed in to another account), which then moves to the caller. Past
 * MAX_DEVICES_PER_ACCOUNT the oldest device of the account is dropped.
 */
export async function saveSubscription(
  db: Db,
  userId: string,
  input: z.output<typeof subscriptionSchema>,
  options: { push: PushSender; policy: OutboundPolicy; userAgent: string | null; recheck: boolean; logger?: Logger },
) {
  const { endpoint, keys } = input.subscription;
  assertPushEndpoint(endpoint, options.policy);
  await enforceThrottle(db, `push-subscribe:${userId}`, SUBSCRIBE_THROTTLE.windowSeconds, SUBSCRIBE_THROTTLE.max);
  const saved = await db.transaction(async (tx) => {
    const foreign = await tx.execute<{ id: string }>(sql`
      select id from push_subscriptions
      where (device_id = ${input.deviceId} or endpoint = ${endpoint}) and user_id <> ${userId}
        and not (endpoint = ${endpoint} and p256dh = ${keys.p256dh} and auth = ${keys.auth})`);
    if (foreign.rows.length > 0) return false;
    // What is left with this endpoint under another device id is the caller's own, or the same browser's.
    await tx.execute(
      sql`delete from push_subscriptions where endpoint = ${endpoint} and device_id <> ${input.deviceId}`,
    );
    await tx.execute(sql`
      insert into push_subscriptions (user_id, device_id, endpoint, p256dh, auth, user_agent)
      values (${userId}, ${input.deviceId}, ${endpoint}, ${keys.p256dh}, ${keys.auth}, ${options.userAgent})
      on conflict (device_id) do update set user_id = excluded.user_id, endpoint = excluded.endpoint, p256dh = excluded.p256dh,
        auth = excluded.auth, user_agent = excluded.user_agent, checked_at = now()`);
    await tx.execute(sql`
      delete from push_subscriptions where user_id = ${userId} and id not in (
        select id from push_subscriptions where user_id = ${userId}
        order by checked_at desc, created_at desc limit ${MAX_DEVICES_PER_ACCOUNT})`);
    return true;
  });
  if (!saved) {
    options.logger?.warn("push: subscription of another account left alone", { userId });
    return { saved: true };
  }
  if (options.recheck) return { saved: true };
  await recordPushConsent(db, userId, true);
  void sendWelcome(db, input, options).catch((error: unknown) =>
    options.logger?.warn("welcome push failed", { error: error instanceof Error ? error.message : String(error) }),
  );
  return { saved: true };
}

async function sendWelcome(
  db: Db,
  input: z.output<typeof subscriptionSchema>,
  options: { push: PushSender; logger?: Logger },
) {
  const { endpoint, keys } = input.subscription;
  const outcome = await options.push.send(
    { endpoint, p256dh: keys.p256dh, auth: keys.auth },
    buildPushPayload({ ...WELCOME_PUSH, url: "/notifications", tag: "welcome" }),
    { urgency: "normal" },
  );
  if (outcome.ok) return;
  options.logger?.warn("welcome push failed", { status: outcome.status });
  if (outcome.gone) {
    await db.execute(
      sql`delete from push_subscriptions where device_id = ${input.deviceId} and endpoint = ${endpoint}`,
    );
  }
}

/** This device turns push off (the consent for other devices stays). */
export async function deleteSubscription(db: Db, userId: string, deviceId: string) {
  const rows = await db.execute<{ id: string }>(
    sql`select id from push_subscriptions where device_id = ${deviceId} and user_id = ${userId}`,
  );
  for (const r of rows.rows) await removeSubscription(db, r.id);
  return { removed: rows.rows.length > 0 };
}
