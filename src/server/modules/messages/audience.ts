import { type SQL, sql } from "drizzle-orm";
import { type Segment, WITHIN_REACH_SHARE } from "../../../domain/messages/segments.ts";
import type { Db } from "../../db/client.ts";

/**
 * Who a message reaches, as SQL: the recipients (user ids) of one channel, already
 * filtered by what each shopper accepted. One definition serves the count shown
 * before sending and the audience frozen when sending starts.
 *
 * Defaults: in-app is on unless refused (for every sender, or for this shop); push,
 * e-mail and SMS need the channel's consent (table `consents`, shared with the
 * profile), no refusal for this shop, and a way to reach the person.
 */
export type AudienceSpec =
  | { kind: "customers"; shopId: string; segment: Segment }
  | { kind: "all_shoppers" }
  | { kind: "all_owners" };

export type Channel = "inapp" | "push" | "email" | "sms";

function segmentWhere(segment: Segment): SQL {
  switch (segment.kind) {
    case "all":
      return sql`true`;
    case "vip":
      return sql`c.lifetime >= (select t.threshold from vip_tiers t where t.id = ${segment.tierId} and t.shop_id = c.shop_id)`;
    case "visited_within":
      return sql`c.last_scan_at >= now() - make_interval(days => ${segment.days}::int)`;
    case "not_seen_for":
      return sql`(c.last_scan_at is null or c.last_scan_at < now() - make_interval(days => ${segment.days}::int))`;
    case "birthday_month":
      return sql`extract(month from (select p.birthday from profiles p where p.id = c.user_id))
        = extract(month from now() at time zone (select s.timezone from shops s where s.id = c.shop_id))`;
    case "reward_within_reach":
      return sql`exists (select 1 from rewards r where r.shop_id = c.shop_id and r.is_active and r.archived_at is null
        and r.cost > c.balance and r.cost - c.balance <= greatest(1, ceil(r.cost * ${WITHIN_REACH_SHARE}::float8)))`;
  }
}

/** The latest choice of a user for a channel, for one shop or (null) for every sender; `fallback` when none. */
function choice(userId: SQL, shopId: SQL | null, channel: Channel, fallback: boolean): SQL {
  const shop = shopId ? sql`p.shop_id = ${shopId}` : sql`p.shop_id is null`;
  return sql`coalesce((select p.granted from message_preferences p where p.user_id = ${userId} and ${shop}
    and p.channel = ${channel} order by p.created_at desc limit 1), ${fallback})`;
}

/** The latest profile consent of a user for an outward channel (table `consents`); false when none. */
function consent(userId: SQL, channel: "push" | "email" | "sms"): SQL {
  return sql`coalesce((select k.granted from consents k where k.user_id = ${userId} and k.channel = ${channel}
    order by k.created_at desc limit 1), false)`;
}

/**
 * Whether a user accepts a channel from this sender. In-app: unless refused. Push, e-mail
 * and SMS: the profile's consent for the channel, no refusal for this shop, and a way to
 * reach them (a subscribed device, a verified address, a number).
 */
function accepts(userId: SQL, shopId: SQL | null, channel: Channel): SQL {
  if (channel === "inapp") {
    return shopId
      ? sql`${choice(userId, null, "inapp", true)} and ${choice(userId, shopId, "inapp", true)}`
      : choice(userId, null, "inapp", true);
  }
  const reachable = {
    push: sql`exists (select 1 from push_subscriptions d where d.user_id = ${userId})`,
    // A hard bounce or a complaint suppresses the address for good (email_events, modules/newsletter).
    email: sql`exists (select 1 from "user" v where v.id = ${userId} and v.email_verified
      and not exists (select 1 from email_events x where x.email = lower(v.email) and x.kind in ('hard_bounce', 'complaint')))`,
    sms: sql`exists (select 1 from profiles f where f.id = ${userId} and f.phone is not null)`,
  }[channel];
  return shopId
    ? sql`${consent(userId, channel)} and ${choice(userId, shopId, channel, true)} and ${reachable}`
    : sql`${consent(userId, channel)} and ${reachable}`;
}

/** `select user_id …` of the recipients of one channel. */
export function recipientsSql(spec: AudienceSpec, channel: Channel): SQL {
  const notBanned = sql`coalesce(u.banned, false) = false`;
  if (spec.kind === "customers") {
    return sql`select c.user_id from cards c join "user" u on u.id = c.user_id
      where c.shop_id = ${spec.shopId} and ${notBanned} and ${segmentWhere(spec.segment)}
      and ${accepts(sql`c.user_id`, sql`c.shop_id`, channel)}`;
  }
  const owners =
    spec.kind === "all_owners"
      ? sql`and exists (select 1 from member m where m.user_id = u.id and m.role = 'owner')`
      : sql``;
  return sql`select u.id as user_id from "user" u where ${notBanned} ${owners} and ${accepts(sql`u.id`, null, channel)}`;
}

/** How many people a message would reach: on any channel, and by each outward channel asked for. */
export async function countAudience(db: Db, spec: AudienceSpec, withPush: boolean, withEmail = false, withSms = false) {
  const none = sql`select null::text where false`;
  const by = (on: boolean, channel: Channel) =>
    on ? sql`(select count(*)::int from (${recipientsSql(spec, channel)}) x)` : sql`0`;
  const result = await db.execute<{ total: number; push: number; email: number; sms: number }>(sql`
    select (select count(*)::int from (${recipientsSql(spec, "inapp")} union ${
      withPush ? recipientsSql(spec, "push") : none
    } union ${withEmail ? recipientsSql(spec, "email") : none} union ${withSms ? recipientsSql(spec, "sms") : none}) a) as total,
    ${by(withPush, "push")} as push, ${by(withEmail, "email")} as email, ${by(withSms, "sms")} as sms`);
  const row = result.rows[0];
  return {
    total: Number(row?.total ?? 0),
    push: Number(row?.push ?? 0),
    email: Number(row?.email ?? 0),
    sms: Number(row?.sms ?? 0),
  };
}
