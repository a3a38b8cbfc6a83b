import { sql } from "drizzle-orm";
import { isWindowOpen } from "../../../domain/messages/send-window.ts";
import {
  isAskingVisit,
  REVIEW_RECENT_VISIT_DAYS,
  REVIEW_REQUEST_GAP_DAYS,
  type ReviewSettings,
  type ReviewTarget,
  reviewRequestText,
} from "../../../domain/reviews/review-requests.ts";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, scopedShop, shopScope } from "../../lib/shop-access.ts";
import { reachesAnySql } from "./audience.ts";
import { at, daysBefore } from "./automation-sql.ts";
import { sendWindowOf } from "./channels/sms-sending.ts";
import { insertMessage, launchMessage } from "./compose.service.ts";

/**
 * Review requests (issue 28 item 2, ADR 0048; the rules: domain/reviews/review-requests.ts). The job reviews.request
 * (every 5 minutes, `now` in its data for tests) decides each shop that turned them on, in its own transaction
 * holding the shop's settings row (another process at the same moment skips it, so two deciders never both see
 * « not asked in 90 days » for one person): the customers whose visit of the last days is an asking one (the first,
 * or every Nth) and who were not asked by this shop in the last 90 days are recorded in `review_requests`, then sent
 * one message through the one engine — consent read when they are chosen, again when the audience freezes and when
 * each copy leaves, the person's daily cap, the operator's send window. Never decided on the scan itself.
 */

type SettingsRow = {
  shop_id: string;
  target: ReviewTarget;
  google_url: string | null;
  every_visits: number;
  with_push: boolean;
  with_email: boolean;
  timezone: string;
  name: string;
  slug: string;
};

/** At most this many people asked per shop and run: the next run takes the rest. */
const BATCH = 1000;

const linkOf = (s: Pick<SettingsRow, "target" | "google_url" | "slug">) =>
  s.target === "google" && s.google_url ? s.google_url : `/review?shop=${encodeURIComponent(s.slug)}`;

/** One shop's run: its new requests recorded and their message created. Null: skipped (busy or outside the window). */
async function decide(deps: Pick<Deps, "db" | "env">, shopId: string, now: Date) {
  return deps.db.transaction(async (tx) => {
    const [s] = (
      await tx.execute<SettingsRow>(sql`
        select r.shop_id, r.target, r.google_url, r.every_visits, r.with_push, r.with_email, s.timezone, s.name, s.slug
        from review_settings r join shops s on s.id = r.shop_id
        where r.shop_id = ${shopId} and r.enabled and s.status = 'active' for update of r skip locked`)
    ).rows;
    if (!s) return null;
    if (s.target === "google" && !s.google_url) return null;
    if (!isWindowOpen(now, { ...sendWindowOf(deps.env), timeZone: s.timezone })) return null;
    const reaches = reachesAnySql(sql`c.user_id`, sql`c.shop_id`, {
      push: s.with_push,
      email: s.with_email,
      sms: false,
    });
    const candidates = (
      await tx.execute<{ user_id: string; card_id: string; visits: number }>(sql`
        select c.user_id, c.id as card_id, c.visits from cards c join "user" u on u.id = c.user_id
        where c.shop_id = ${s.shop_id} and coalesce(u.banned, false) = false and c.visits > 0
          and c.last_scan_at > ${daysBefore(now, REVIEW_RECENT_VISIT_DAYS)} and c.last_scan_at <= ${at(now)}
          and not exists (select 1 from review_requests q where q.shop_id = c.shop_id and q.user_id = c.user_id
            and q.decided_at > ${daysBefore(now, REVIEW_REQUEST_GAP_DAYS)})
          and not exists (select 1 from review_requests q where q.card_id = c.id and q.visits = c.visits)
          and not exists (select 1 from member m where m.organization_id = c.shop_id and m.user_id = c.user_id)
          and ${reaches}
        order by c.last_scan_at`)
    ).rows;
    const asked = candidates.filter((c) => isAskingVisit(Number(c.visits), s.every_visits)).slice(0, BATCH);
    if (asked.length === 0) return { asked: 0, messageId: null };
    const text = reviewRequestText(s.target, s.name);
    const messageId = await insertMessage(tx, {
      shopId: s.shop_id,
      authorId: null,
      audience: "review_requests",
      segment: null,
      kind: "automation",
      title: text.title,
      body: text.body,
      newsletter: { subject: null, preheader: null, blocks: null },
      imageUrl: null,
      linkUrl: linkOf(s),
      channels: { push: s.with_push, email: s.with_email, sms: false },
      isPromotional: true,
      scheduledAt: new Date(),
    });
    await tx.execute(sql`
      insert into review_requests (shop_id, user_id, card_id, visits, target, message_id, decided_at)
      select ${s.shop_id}, x.user_id, x.card_id, x.visits, ${s.target}, ${messageId}, ${at(now)}
      from (values ${sql.join(
        asked.map((c) => sql`(${c.user_id}, ${c.card_id}, ${Number(c.visits)}::int)`),
        sql`, `,
      )}) x(user_id, card_id, visits)`);
    return { asked: asked.length, messageId };
  });
}

/** Runs every shop's review requests once at `now`; safe from several processes at once and again after a crash. */
export async function runReviewRequests(deps: Pick<Deps, "db" | "env" | "jobs" | "logger">, now: Date) {
  const due = await deps.db.execute<{ shop_id: string }>(sql`
    select r.shop_id from review_settings r join shops s on s.id = r.shop_id
    where r.enabled and s.status = 'active' order by r.shop_id`);
  const total = { shops: 0, asked: 0 };
  for (const { shop_id } of due.rows) {
    const result = await decide(deps, shop_id, now);
    if (!result) continue;
    total.shops++;
    total.asked += result.asked;
    // After the commit, outside any transaction (PGlite is one connection).
    if (result.messageId) await launchMessage(deps, result.messageId, null);
  }
  return total;
}

/** /admin/avis: the settings, the requests sent (how many reached someone) and the reviews received. */
export async function getReviewsPage(db: Db, access: ShopAccess, now: Date) {
  const shop = await scopedShop(db, access);
  const [settings] = (
    await db.execute<Omit<SettingsRow, "timezone" | "name" | "slug" | "shop_id"> & { enabled: boolean }>(sql`
      select enabled, target, google_url, every_visits, with_push, with_email from review_settings where shop_id = ${shop.id}`)
  ).rows;
  const [sent] = (
    await db.execute<{ total: number; last30: number; reached: number }>(sql`
      select count(*)::int as total, count(*) filter (where q.decided_at > ${daysBefore(now, 30)})::int as last30,
        count(*) filter (where exists (select 1 from message_deliveries d where d.message_id = q.message_id
          and d.user_id = q.user_id and d.status = 'delivered'))::int as reached
      from review_requests q where q.shop_id = ${shopScope(access)}`)
  ).rows;
  const requests = (
    await db.execute<{
      decided_at: string | Date;
      target: ReviewTarget;
      visits: number;
      first_name: string | null;
    }>(sql`
      select q.decided_at, q.target, q.visits, p.first_name from review_requests q left join profiles p on p.id = q.user_id
      where q.shop_id = ${shopScope(access)} order by q.decided_at desc limit 50`)
  ).rows;
  const reviews = (
    await db.execute<{
      id: string;
      rating: number;
      comment: string | null;
      updated_at: string | Date;
      first_name: string | null;
      last_name: string | null;
    }>(sql`
      select r.id, r.rating, r.comment, r.updated_at, p.first_name, p.last_name from shop_reviews r
      left join profiles p on p.id = r.user_id where r.shop_id = ${shopScope(access)}
      order by r.updated_at desc limit 100`)
  ).rows;
  const [avg] = (
    await db.execute<{ n: number; average: number | null }>(sql`
      select count(*)::int as n, avg(rating)::float8 as average from shop_reviews where shop_id = ${shop.id}`)
  ).rows;
  return {
    shopName: shop.name,
    slug: shop.slug,
    settings: {
      enabled: settings?.enabled ?? false,
      target: settings?.target ?? ("fidele" as ReviewTarget),
      googleUrl: settings?.google_url ?? null,
      everyVisits: settings?.every_visits ?? 1,
      push: settings?.with_push ?? true,
      email: settings?.with_email ?? false,
    },
    sent: { total: Number(sent?.total ?? 0), last30: Number(sent?.last30 ?? 0), reached: Number(sent?.reached ?? 0) },
    requests: requests.map((q) => ({
      at: new Date(q.decided_at).toISOString(),
      target: q.target,
      visits: Number(q.visits),
      firstName: q.first_name ?? "Client",
    })),
    reviews: {
      count: Number(avg?.n ?? 0),
      average: avg?.average === null || avg?.average === undefined ? null : Math.round(Number(avg.average) * 10) / 10,
      list: reviews.map((r) => ({
        id: r.id,
        rating: r.rating,
        comment: r.comment,
        at: new Date(r.updated_at).toISOString(),
        author: r.first_name ? `${r.first_name}${r.last_name ? ` ${r.last_name[0]}.` : ""}` : "Client",
      })),
    },
  };
}

export async function saveReviewSettings(db: Db, access: ShopAccess, s: ReviewSettings) {
  const shop = await scopedShop(db, access);
  await db.execute(sql`
    insert into review_settings (shop_id, enabled, target, google_url, every_visits, with_push, with_email)
    values (${shop.id}, ${s.enabled}, ${s.target}, ${s.googleUrl}, ${s.everyVisits}, ${s.push}, ${s.email})
    on conflict (shop_id) do update set enabled = excluded.enabled, target = excluded.target,
      google_url = excluded.google_url, every_visits = excluded.every_visits, with_push = excluded.with_push,
      with_email = excluded.with_email, updated_at = now()`);
}
