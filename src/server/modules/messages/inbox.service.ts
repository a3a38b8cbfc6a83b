import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import type { Database, Db } from "../../db/client.ts";
import { announce } from "../../lib/live.ts";
import { filledText, type FrozenValues } from "./merge-values.ts";
import { inboxKey, progressKey } from "./sending.service.ts";

/**
 * The shopper's inbox (/notifications, /messages/{id}): the in-app deliveries made
 * to them. Every query is scoped by the user: someone else's message is not found.
 */
const notFound = () => new AppError("NOT_FOUND", { userMessage: "Ce message est introuvable." });

type InboxRow = {
  id: string;
  title: string;
  body: string;
  image_url: string | null;
  link_url: string | null;
  shop_name: string | null;
  shop_slug: string | null;
  sent_at: Date;
  read_at: Date | null;
  /** An automation's: the recipient's merge field values when it left (merge-values.ts). */
  merge: FrozenValues | null;
};

const dto = (row: InboxRow) => {
  const r = filledText(row, row.merge);
  return {
    id: r.id,
    title: r.title,
    body: r.body,
    imageUrl: r.image_url,
    linkUrl: r.link_url,
    /** Null: a message from Fidèle itself. */
    shop: r.shop_name ? { name: r.shop_name, slug: r.shop_slug } : null,
    sentAt: r.sent_at,
    isRead: r.read_at !== null,
  };
};

const SELECT = sql`
  select m.id, m.title, m.body, m.image_url, m.link_url, s.name as shop_name, s.slug as shop_slug,
    d.delivered_at as sent_at, d.read_at, o.merge
  from message_deliveries d join messages m on m.id = d.message_id left join shops s on s.id = m.shop_id
  left join lateral (select o.merge from automation_occasions o
    where m.kind = 'automation' and o.message_id = m.id and o.user_id = d.user_id limit 1) o on true`;

export async function listInbox(db: Db, userId: string, limit = 100) {
  const rows = await db.execute<InboxRow>(sql`${SELECT}
    where d.user_id = ${userId} and d.channel = 'inapp' and d.status = 'delivered'
    order by d.delivered_at desc, m.id desc limit ${limit}`);
  return { messages: rows.rows.map(dto), unread: await unreadCount(db, userId) };
}

export async function unreadCount(db: Db, userId: string): Promise<number> {
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from message_deliveries
    where user_id = ${userId} and channel = 'inapp' and status = 'delivered' and read_at is null`);
  return Number(rows.rows[0]?.n ?? 0);
}

/** One message delivered to this user (in-app, or a push whose in-app copy they turned off). */
export async function getInboxMessage(db: Db, userId: string, messageId: string) {
  const rows = await db.execute<InboxRow>(sql`${SELECT}
    where d.user_id = ${userId} and d.message_id = ${messageId} and d.status = 'delivered'
    order by (d.channel = 'inapp') desc limit 1`);
  const row = rows.rows[0];
  if (!row) throw notFound();
  return dto(row);
}

/** Opening a message reads it (idempotent: the first time is kept). */
export async function markRead(database: Database, userId: string, messageId: string) {
  const changed = await database.db.execute(sql`
    update message_deliveries set read_at = now()
    where user_id = ${userId} and message_id = ${messageId} and channel = 'inapp' and status = 'delivered' and read_at is null
    returning id`);
  if (changed.rows.length > 0) {
    announce(database, inboxKey(userId));
    announce(database, progressKey(messageId));
  }
  return { unread: await unreadCount(database.db, userId) };
}

/** A tap on the notification or on the message's link. */
export async function markClicked(database: Database, userId: string, messageId: string) {
  const changed = await database.db.execute(sql`
    update message_deliveries set clicked_at = coalesce(clicked_at, now())
    where user_id = ${userId} and message_id = ${messageId} and status = 'delivered'
    returning id`);
  if (changed.rows.length === 0) throw notFound();
  announce(database, progressKey(messageId));
  return { ok: true };
}
