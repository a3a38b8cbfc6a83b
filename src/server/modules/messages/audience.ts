import { type SQL, sql } from "drizzle-orm";
import { type Segment, WITHIN_REACH_SHARE } from "../../../domain/messages/segments.ts";
import type { Db } from "../../db/client.ts";
import { acceptsSql, type Channel, reachableSql } from "./consent.ts";

/**
 * Who a message reaches, as SQL: the recipients (user ids) of one channel, already
 * filtered by what each shopper accepted and whether they can be reached (consent.ts).
 * One definition serves the count shown before sending and the audience frozen when
 * sending starts.
 */
export type AudienceSpec =
  | { kind: "customers"; shopId: string; segment: Segment }
  | { kind: "all_shoppers" }
  | { kind: "all_owners" }
  /** An automation's message: the people of the occasions that name it (automation-run.service.ts). */
  | { kind: "occasions"; shopId: string; messageId: string }
  /** A review request's message: the people asked in it (review-requests.service.ts). */
  | { kind: "review_requests"; shopId: string; messageId: string };

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

/** Whether a user accepts a channel from this sender (consent.ts) and, outward, can be reached on it. */
function accepts(userId: SQL, shopId: SQL | null, channel: Channel): SQL {
  const accepted = acceptsSql(userId, shopId, channel);
  return channel === "inapp" ? accepted : sql`${accepted} and ${reachableSql(userId, channel)}`;
}

/** Whether a user accepts and can be reached on at least one of these channels from this shop (in-app is always one). */
export function reachesAnySql(
  userId: SQL,
  shopId: SQL,
  channels: { push: boolean; email: boolean; sms: boolean },
): SQL {
  const asked = (["inapp", "push", "email", "sms"] as const).filter((c) => c === "inapp" || channels[c]);
  return sql`(${sql.join(
    asked.map((channel) => accepts(userId, shopId, channel)),
    sql` or `,
  )})`;
}

/** `select user_id …` of the recipients of one channel. */
export function recipientsSql(spec: AudienceSpec, channel: Channel): SQL {
  const notBanned = sql`coalesce(u.banned, false) = false`;
  if (spec.kind === "occasions") {
    return sql`select o.user_id from automation_occasions o join "user" u on u.id = o.user_id
      where o.message_id = ${spec.messageId} and ${notBanned} and ${accepts(sql`o.user_id`, sql`${spec.shopId}`, channel)}`;
  }
  if (spec.kind === "review_requests") {
    return sql`select q.user_id from review_requests q join "user" u on u.id = q.user_id
      where q.message_id = ${spec.messageId} and ${notBanned} and ${accepts(sql`q.user_id`, sql`${spec.shopId}`, channel)}`;
  }
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

/** How many people a message would reach: on any of the channels asked for, and by each outward one. */
export async function countAudience(db: Db, spec: AudienceSpec, channels: Record<Channel, boolean>) {
  const asked = (["inapp", "push", "email", "sms"] as const).filter((channel) => channels[channel]);
  const by = (channel: Exclude<Channel, "inapp">) =>
    channels[channel] ? sql`(select count(*)::int from (${recipientsSql(spec, channel)}) x)` : sql`0`;
  const anyChannel = asked.length
    ? sql.join(
        asked.map((channel) => recipientsSql(spec, channel)),
        sql` union `,
      )
    : sql`select null::text where false`;
  const result = await db.execute<{ total: number; push: number; email: number; sms: number }>(sql`
    select (select count(*)::int from (${anyChannel}) a) as total,
      ${by("push")} as push, ${by("email")} as email, ${by("sms")} as sms`);
  const row = result.rows[0];
  return {
    total: Number(row?.total ?? 0),
    push: Number(row?.push ?? 0),
    email: Number(row?.email ?? 0),
    sms: Number(row?.sms ?? 0),
  };
}
