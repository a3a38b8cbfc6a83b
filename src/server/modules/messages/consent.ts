import { type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";
import type { ConsentChannel } from "../../db/schema/app.ts";

/**
 * Whom a sender may reach, as SQL: the one definition the audience, the drivers (read again when each copy
 * leaves), /notif, the profile, the unsubscribe links and SMS STOP all use.
 *
 * Two append-only logs, each choice a row with its wording and time (GDPR art. 7(1): consent must be
 * demonstrable), and the latest row is the one that counts:
 * - `consents`: the profile's consent to an outward channel (push, e-mail, SMS) for every sender; none is no.
 * - `message_preferences`: a person's choice of a channel from one shop, or (shop null) in-app from every
 *   sender; none is yes (a refusal is what it records).
 */
export type Channel = "inapp" | "push" | "email" | "sms";

/** The latest row of a consent log matching `where` says yes; `fallback` when there is none. */
function latestGranted(log: "consents" | "message_preferences", where: SQL, fallback: boolean): SQL {
  return sql`coalesce((select latest.granted from ${sql.raw(log)} latest where ${where}
    order by latest.created_at desc limit 1), ${fallback})`;
}

/** The profile's consent of `userId` to an outward channel (false when never given). */
export function consentSql(userId: SQL, channel: ConsentChannel): SQL {
  return latestGranted("consents", sql`latest.user_id = ${userId} and latest.channel = ${channel}`, false);
}

/** The choice of `userId` for a channel from one shop, or (null) from every sender (true when never made). */
export function preferenceSql(userId: SQL, shopId: SQL | null, channel: Channel): SQL {
  const shop = shopId ? sql`latest.shop_id = ${shopId}` : sql`latest.shop_id is null`;
  return latestGranted(
    "message_preferences",
    sql`latest.user_id = ${userId} and ${shop} and latest.channel = ${channel}`,
    true,
  );
}

/**
 * Whether `userId` accepts a channel from a shop (null: the platform). In-app: unless refused, for every sender
 * or for this shop. Push, e-mail, SMS: the profile's consent, and no refusal for this shop.
 */
export function acceptsSql(userId: SQL, shopId: SQL | null, channel: Channel): SQL {
  const everySender = channel === "inapp" ? preferenceSql(userId, null, "inapp") : consentSql(userId, channel);
  return shopId ? sql`(${everySender} and ${preferenceSql(userId, shopId, channel)})` : everySender;
}

/** The address (a lower-cased address expression) had a hard bounce or a complaint: never mailed again. */
export function suppressedSql(email: SQL): SQL {
  return sql`exists (select 1 from email_events bounce where bounce.email = ${email} and bounce.kind in ('hard_bounce', 'complaint'))`;
}

/** `userId` can be reached on an outward channel at all: a subscribed device, a verified address not suppressed, a number. */
export function reachableSql(userId: SQL, channel: Exclude<Channel, "inapp">): SQL {
  switch (channel) {
    case "push":
      return sql`exists (select 1 from push_subscriptions d where d.user_id = ${userId})`;
    case "email":
      return sql`exists (select 1 from "user" v where v.id = ${userId} and v.email_verified
        and not ${suppressedSql(sql`lower(v.email)`)})`;
    case "sms":
      return sql`exists (select 1 from profiles f where f.id = ${userId} and f.phone is not null)`;
  }
}

type RecordOptions = {
  /** Only when the latest row says otherwise (a link clicked twice records once). */
  ifChanged?: boolean;
};

/** Records the profile's consent to an outward channel as a new row (with the wording shown); whether one was written. */
export async function recordConsent(
  db: Db,
  choice: { userId: string; channel: ConsentChannel; granted: boolean; wording: string },
  { ifChanged = false }: RecordOptions = {},
): Promise<boolean> {
  const changed = ifChanged
    ? sql`${consentSql(sql`${choice.userId}`, choice.channel)} <> ${choice.granted}::boolean`
    : sql`true`;
  const rows = await db.execute(sql`
    insert into consents (user_id, channel, granted, wording)
    select ${choice.userId}, ${choice.channel}, ${choice.granted}::boolean, ${choice.wording} where ${changed}
    returning id`);
  return rows.rows.length > 0;
}

/** Records a choice of a channel from one shop, or (null) from every sender, as a new row; whether one was written. */
export async function recordPreference(
  db: Db,
  choice: { userId: string; shopId: string | null; channel: Channel; granted: boolean; wording: string },
  { ifChanged = false }: RecordOptions = {},
): Promise<boolean> {
  const shop = choice.shopId === null ? null : sql`${choice.shopId}`;
  const changed = ifChanged
    ? sql`${preferenceSql(sql`${choice.userId}`, shop, choice.channel)} <> ${choice.granted}::boolean`
    : sql`true`;
  const rows = await db.execute(sql`
    insert into message_preferences (user_id, shop_id, channel, granted, wording)
    select ${choice.userId}, ${choice.shopId}, ${choice.channel}, ${choice.granted}::boolean, ${choice.wording}
    where ${changed}
    returning id`);
  return rows.rows.length > 0;
}
