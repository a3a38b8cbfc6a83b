import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import {
  type announceSchema,
  type composeSchema,
  MESSAGE_STATUS_LABELS_FR,
  type MessageStatus,
  PLATFORM_AUDIENCE_LABELS_FR,
  type PlatformAudience,
  type Segment,
  segmentLabelFr,
} from "../../../domain/messages/segments.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { type AudienceSpec, countAudience } from "./audience.ts";
import { enforceShopQuota, quotaUse } from "./quota.ts";
import { enqueueSending, startSending } from "./sending.service.ts";
import { sendingProgress } from "../../../domain/messages/progress.ts";

/**
 * The composer (/admin/envoyer-un-message), what was sent (/admin/message) and
 * platform announcements (/admin/push): one pipeline. A sender is a shop (scoped by
 * `shopScope`, so another shop's message is "not found") or the platform (shop null).
 */
export type Sender = { kind: "shop"; access: ShopAccess } | { kind: "platform"; userId: string };

const notFound = () => new AppError("NOT_FOUND", { userMessage: "Ce message est introuvable." });

function senderWhere(sender: Sender): SQL {
  return sender.kind === "shop" ? sql`m.shop_id = ${shopScope(sender.access)}` : sql`m.shop_id is null`;
}

async function tierName(db: Db, shopId: string, tierId: string) {
  const rows = await db.execute<{ name: string }>(
    sql`select name from vip_tiers where id = ${tierId} and shop_id = ${shopId}`,
  );
  return rows.rows[0]?.name ?? null;
}

async function specFor(
  db: Db,
  sender: Sender,
  target: { segment?: Segment; audience?: PlatformAudience },
): Promise<AudienceSpec> {
  if (sender.kind === "platform") return { kind: target.audience ?? "all_shoppers" };
  const segment = target.segment ?? { kind: "all" };
  // The shop the person still manages (shopScope), else nothing matches.
  const own = await db.execute<{ id: string }>(sql`select s.id from shops s where s.id = ${shopScope(sender.access)}`);
  if (!own.rows[0]) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  if (segment.kind === "vip" && !(await tierName(db, sender.access.shopId, segment.tierId))) {
    throw new AppError("VALIDATION", {
      userMessage: "Ce niveau VIP n'existe pas dans votre boutique.",
      fields: { "segment.tierId": "Niveau introuvable." },
    });
  }
  return { kind: "customers", shopId: sender.access.shopId, segment };
}

export async function countRecipients(
  db: Db,
  sender: Sender,
  target: { segment?: Segment; audience?: PlatformAudience; push: boolean; email?: boolean; sms?: boolean },
) {
  return countAudience(db, await specFor(db, sender, target), target.push, target.email ?? false, target.sms ?? false);
}

/** What the composer needs: the shop's VIP levels (for the segment), its name (for the preview), its quota used. */
export async function composerContext(db: Db, env: Env, access: ShopAccess) {
  const shop = await db.execute<{ name: string }>(sql`select s.name from shops s where s.id = ${shopScope(access)}`);
  if (!shop.rows[0]) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  const tiers = await db.execute<{ id: string; name: string; threshold: number }>(
    sql`select id, name, threshold from vip_tiers where shop_id = ${access.shopId} order by threshold`,
  );
  return {
    shopName: shop.rows[0].name,
    tiers: tiers.rows,
    quota: await quotaUse(db, env, access.shopId, "message", new Date()),
  };
}

type ComposeOutput = z.output<typeof composeSchema>;
type AnnounceOutput = z.output<typeof announceSchema>;

/** What sending needs: the database and the job engine (sending is a job, jobs/messages-send.ts). */
type SendingDeps = Pick<Deps, "db" | "jobs" | "logger" | "env">;

/** `email` and `sms` may be left out (callers from before those channels: benches, tests): not used. */
type MessageInput = (Omit<ComposeOutput, "email" | "sms"> | Omit<AnnounceOutput, "email">) & {
  email?: boolean;
  sms?: boolean;
};

export async function createMessage(deps: SendingDeps, sender: Sender, input: MessageInput) {
  const { db } = deps;
  const segment = "segment" in input ? input.segment : null;
  const audience = "audience" in input ? input.audience : undefined;
  await specFor(db, sender, { segment: segment ?? undefined, audience });
  const scheduled = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const later = scheduled !== null && scheduled.getTime() > Date.now() + 30_000;
  // A shop's quota of messages (quota.ts), checked and taken in one transaction.
  const inserted = await db.transaction(async (tx) => {
    if (sender.kind === "shop") {
      await enforceShopQuota(tx, deps.env, sender.access.shopId, "message", later ? scheduled : new Date());
    }
    return tx.execute<{ id: string }>(sql`
    insert into messages (shop_id, author_id, audience, segment, title, body, image_url, link_url, with_push, with_email, with_sms, is_promotional, status, scheduled_at)
    values (${sender.kind === "shop" ? sender.access.shopId : null}, ${sender.kind === "shop" ? sender.access.userId : sender.userId},
      ${sender.kind === "shop" ? "customers" : (audience ?? "all_shoppers")}, ${segment ? JSON.stringify(segment) : null}::jsonb,
      ${input.title}, ${input.body}, ${input.imageUrl ?? null}, ${input.linkUrl ?? null}, ${input.push}, ${input.email ?? false},
      ${input.sms ?? false},
      ${sender.kind === "shop"}, 'scheduled', ${later ? scheduled.toISOString() : null})
    returning id`);
  });
  const id = inserted.rows[0]!.id;
  // The audience is frozen now (the count shown is the one sent to); the job engine delivers.
  if (!later) await startSending(db, id);
  await enqueueSending(deps, id, later ? scheduled : undefined);
  return getSentMessage(db, sender, id);
}

type SentRow = {
  id: string;
  title: string;
  body: string;
  image_url: string | null;
  link_url: string | null;
  audience: "customers" | PlatformAudience;
  segment: Segment | null;
  with_push: boolean;
  with_email: boolean;
  email_delivered: number;
  status: MessageStatus;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
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
  tier_name: string | null;
};

const SENT_SELECT = sql`
  select m.id, m.title, m.body, m.image_url, m.link_url, m.audience, m.segment, m.with_push, m.with_email, m.status,
    m.scheduled_at, m.started_at, m.finished_at, m.created_at, m.total,
    (select t.name from vip_tiers t where t.id = m.segment->>'tierId') as tier_name,
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
    status: r.status,
    statusLabel: MESSAGE_STATUS_LABELS_FR[r.status],
    scheduledAt: r.scheduled_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    createdAt: r.created_at,
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
    progress: sendingProgress(r.total, r.pending, r.status),
  };
}
export type SentMessage = ReturnType<typeof sentDto>;

export async function listSentMessages(db: Db, sender: Sender) {
  const rows = await db.execute<SentRow>(
    sql`${SENT_SELECT} where ${senderWhere(sender)} and m.kind = 'message' order by coalesce(m.scheduled_at, m.created_at) desc limit 100`,
  );
  return rows.rows.map(sentDto);
}

export async function getSentMessage(db: Db, sender: Sender, id: string) {
  const rows = await db.execute<SentRow>(
    sql`${SENT_SELECT} where m.id = ${id} and m.kind <> 'notice' and ${senderWhere(sender)}`,
  );
  const row = rows.rows[0];
  if (!row) throw notFound();
  return sentDto(row);
}

const TRANSITIONS = {
  pause: { from: ["sending"], to: "paused", refusal: "Seul un envoi en cours peut être mis en pause." },
  resume: { from: ["paused"], to: "sending", refusal: "Ce message n'est pas en pause." },
  cancel: {
    from: ["scheduled", "paused"],
    to: "cancelled",
    refusal: "Seul un message programmé ou en pause peut être annulé.",
  },
} as const;

/** Pause, resume, or cancel (a scheduled or paused message: what was not delivered yet stays undelivered). */
export async function changeMessageStatus(
  deps: SendingDeps,
  sender: Sender,
  id: string,
  action: keyof typeof TRANSITIONS,
) {
  const { db } = deps;
  const t = TRANSITIONS[action];
  const changed = await db.execute<{ id: string }>(sql`
    update messages m set status = ${t.to}
    where m.id = ${id} and ${senderWhere(sender)} and m.status in (${sql.join(
      t.from.map((s) => sql`${s}`),
      sql`, `,
    )}) returning m.id`);
  if (!changed.rows[0]) {
    await getSentMessage(db, sender, id); // 404 when not the sender's
    throw new AppError("CONFLICT", { userMessage: t.refusal });
  }
  if (action === "cancel") {
    await db.execute(
      sql`update message_deliveries set status = 'skipped', detail = 'cancelled' where message_id = ${id} and status = 'pending'`,
    );
  }
  if (action === "resume") await enqueueSending(deps, id);
  return getSentMessage(db, sender, id);
}
