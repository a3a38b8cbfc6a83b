import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { sendingProgress } from "../../../domain/messages/progress.ts";
import {
  MESSAGE_STATUS_LABELS_FR,
  type MessageStatus,
  PLATFORM_AUDIENCE_LABELS_FR,
  type PlatformAudience,
  type Segment,
  segmentLabelFr,
} from "../../../domain/messages/segments.ts";
import type { Db } from "../../db/client.ts";
import { type Sender, senderWhere } from "./compose.service.ts";

/**
 * What a sender sent (/admin/message, /admin/push): each message with its figures by channel, from its
 * deliveries. Newsletters have their own view (newsletter.service.ts: the e-mail's figures) on the same columns.
 */

/** The columns of a message every view of what was sent reads: its status and times, its segment's VIP level. */
export const SENT_COLUMNS = sql`m.id, m.segment, m.status, m.scheduled_at, m.started_at, m.finished_at, m.created_at,
  (select t.name from vip_tiers t where t.id = m.segment->>'tierId') as tier_name`;

export type SentColumns = {
  id: string;
  segment: Segment | null;
  status: MessageStatus;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  tier_name: string | null;
};

/** Where a message stands (its status in French, its times, the share of its deliveries handled). */
export function sendingStateOf(r: SentColumns & { total: number; pending: number }) {
  return {
    status: r.status,
    statusLabel: MESSAGE_STATUS_LABELS_FR[r.status],
    scheduledAt: r.scheduled_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    createdAt: r.created_at,
    progress: sendingProgress(r.total, r.pending, r.status),
  };
}

type SentRow = SentColumns & {
  title: string;
  body: string;
  image_url: string | null;
  link_url: string | null;
  audience: "customers" | PlatformAudience;
  with_push: boolean;
  with_email: boolean;
  email_delivered: number;
  total: number;
  recipients: number;
  pending: number;
  delivered: number;
  push_delivered: number;
  with_sms: boolean;
  sms_delivered: number;
  sms_waiting: number;
  sms_next: Date | string | null;
  read: number;
  clicked: number;
  failed: number;
  skipped: number;
};

const SENT_SELECT = sql`
  select ${SENT_COLUMNS}, m.title, m.body, m.image_url, m.link_url, m.audience, m.with_push, m.with_email, m.total,
    coalesce(k.recipients, 0) as recipients, coalesce(k.pending, 0) as pending, coalesce(k.delivered, 0) as delivered,
    coalesce(k.push_delivered, 0) as push_delivered, coalesce(k.email_delivered, 0) as email_delivered, coalesce(k.read, 0) as read, coalesce(k.clicked, 0) as clicked,
    coalesce(k.failed, 0) as failed, coalesce(k.skipped, 0) as skipped,
    m.with_sms, coalesce(k.sms_delivered, 0) as sms_delivered, coalesce(k.sms_waiting, 0) as sms_waiting, k.sms_next
  from messages m
  left join lateral (
    select count(distinct d.user_id)::int as recipients,
      count(*) filter (where d.status in ('pending', 'claimed'))::int as pending,
      count(*) filter (where d.status = 'delivered' and d.channel = 'inapp')::int as delivered,
      count(*) filter (where d.status = 'delivered' and d.channel = 'push')::int as push_delivered,
      count(*) filter (where d.status = 'delivered' and d.channel = 'email')::int as email_delivered,
      count(*) filter (where d.read_at is not null and d.channel = 'inapp')::int as read,
      count(distinct d.user_id) filter (where d.clicked_at is not null)::int as clicked,
      count(*) filter (where d.status = 'failed')::int as failed,
      count(*) filter (where d.status = 'skipped')::int as skipped,
      count(*) filter (where d.status = 'delivered' and d.channel = 'sms')::int as sms_delivered,
      count(*) filter (where d.status = 'pending' and d.channel = 'sms' and d.not_before > now())::int as sms_waiting,
      min(d.not_before) filter (where d.status = 'pending' and d.channel = 'sms' and d.not_before > now()) as sms_next
    from message_deliveries d where d.message_id = m.id) k on true`;

function sentDto(r: SentRow) {
  return {
    id: r.id,
    title: r.title,
    body: r.body,
    imageUrl: r.image_url,
    linkUrl: r.link_url,
    audienceLabel:
      r.audience === "customers"
        ? segmentLabelFr(r.segment ?? { kind: "all" }, r.tier_name)
        : PLATFORM_AUDIENCE_LABELS_FR[r.audience],
    withPush: r.with_push,
    withEmail: r.with_email,
    /** SMS (issue 15): sent, and held until the operator's window opens (SMS quiet hours). */
    sms: r.with_sms
      ? {
          delivered: r.sms_delivered,
          waiting: r.sms_waiting,
          nextAt: r.sms_next ? new Date(r.sms_next).toISOString() : null,
        }
      : null,
    ...sendingStateOf(r),
    counts: {
      total: r.total,
      recipients: r.recipients,
      pending: r.pending,
      delivered: r.delivered,
      pushDelivered: r.push_delivered,
      emailDelivered: r.email_delivered,
      read: r.read,
      clicked: r.clicked,
      failed: r.failed,
      skipped: r.skipped,
    },
  };
}

export async function listSentMessages(db: Db, sender: Sender) {
  const rows = await db.execute<SentRow>(
    sql`${SENT_SELECT} where ${senderWhere(sender)} and m.kind = 'message' order by coalesce(m.scheduled_at, m.created_at) desc limit 100`,
  );
  return rows.rows.map(sentDto);
}

export async function getSentMessage(db: Db, sender: Sender, id: string) {
  const rows = await db.execute<SentRow>(
    sql`${SENT_SELECT} where m.id = ${id} and m.kind = 'message' and ${senderWhere(sender)}`,
  );
  const row = rows.rows[0];
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Ce message est introuvable." });
  return sentDto(row);
}
