import { sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { MESSAGE_STATUS_LABELS_FR, type MessageStatus, type Segment, segmentLabelFr } from "../../../domain/messages/segments.ts";
import {
  mergeValues,
  type NewsletterContent,
  newsletterTitle,
  type newsletterSchema,
} from "../../../domain/newsletter/blocks.ts";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { recipientsSql } from "../messages/audience.ts";
import { enqueueSending, startSending } from "../messages/sending.service.ts";
import { enforceShopQuota } from "../messages/quota.ts";
import { loadNewsletterContext, marketingHeaders } from "../messages/email-driver.ts";
import { compileNewsletter, personalize } from "../messages/email-render.ts";
import { signUnsubscribeToken, unsubscribeUrl } from "../messages/unsubscribe-token.ts";
import { sendingProgress } from "../../../domain/messages/progress.ts";

/**
 * /admin/newsletter: a shop's e-mail campaigns. A newsletter is a `messages` row of kind
 * "newsletter" (subject, preheader, blocks) sent on the e-mail channel only, through the
 * same engine as the composer's messages: the audience frozen into message_deliveries,
 * throttled claims, pause/resume, exactly once (ADR 0021). Figures come from the
 * deliveries and from email_events (bounces, complaints, one-click unsubscribes).
 */
const notFound = () => new AppError("NOT_FOUND", { userMessage: "Cette newsletter est introuvable." });

async function ownShop(db: Db, access: ShopAccess) {
  const shop = (await db.execute<{ id: string; name: string }>(sql`select id, name from shops where id = ${shopScope(access)}`))
    .rows[0];
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

async function checkSegment(db: Db, shopId: string, segment: Segment) {
  if (segment.kind !== "vip") return;
  const tier = await db.execute(sql`select 1 from vip_tiers where id = ${segment.tierId} and shop_id = ${shopId}`);
  if (!tier.rows[0]) {
    throw new AppError("VALIDATION", {
      userMessage: "Ce niveau VIP n'existe pas dans votre boutique.",
      fields: { "segment.tierId": "Niveau introuvable." },
    });
  }
}

/** Reward blocks must name a reward of this shop that is still offered. */
async function checkRewards(db: Db, shopId: string, content: NewsletterContent) {
  const ids = content.blocks.flatMap((b) => (b.type === "reward" ? [b.rewardId] : []));
  if (ids.length === 0) return;
  const found = await db.execute<{ id: string }>(sql`
    select id from rewards where shop_id = ${shopId} and is_active and archived_at is null
      and id in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
  const known = new Set(found.rows.map((r) => r.id));
  const index = content.blocks.findIndex((b) => b.type === "reward" && !known.has(b.rewardId));
  if (index >= 0) {
    throw new AppError("VALIDATION", {
      userMessage: "Cette récompense n'est plus proposée par votre boutique.",
      fields: { [`blocks.${index}.rewardId`]: "Récompense introuvable." },
    });
  }
}

/** What the editor needs: the shop's name, VIP levels, rewards (reward blocks), the send rate. */
export async function newsletterEditorContext(deps: Pick<Deps, "db" | "env">, access: ShopAccess) {
  const shop = await ownShop(deps.db, access);
  const tiers = await deps.db.execute<{ id: string; name: string }>(
    sql`select id, name from vip_tiers where shop_id = ${shop.id} order by threshold`,
  );
  const ctx = await loadNewsletterContext(deps.db, shop.id, deps.env.APP_URL);
  return {
    shopName: shop.name,
    tiers: tiers.rows,
    rewards: ctx.rewards.map((r) => ({ id: r.id, title: r.title, cost: r.cost })),
    mode: ctx.mode,
    ratePerSecond: deps.env.EMAIL_RATE_PER_SECOND,
    /** Whether opens are counted (the operator's EMAIL_OPEN_TRACKING; off by default). */
    openTracking: deps.env.EMAIL_OPEN_TRACKING,
  };
}

/** How many customers of the segment accepted e-mail from this shop (and can receive it). */
export async function countNewsletterAudience(db: Db, access: ShopAccess, segment: Segment) {
  const shop = await ownShop(db, access);
  await checkSegment(db, shop.id, segment);
  const rows = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (${recipientsSql({ kind: "customers", shopId: shop.id, segment }, "email")}) r`);
  return { email: Number(rows.rows[0]?.n ?? 0) };
}

/** The owner's own copy: their first name and card at this shop (or an example balance). */
async function ownCopy(deps: Pick<Deps, "db" | "env">, access: ShopAccess, content: NewsletterContent) {
  const shop = await ownShop(deps.db, access);
  await checkRewards(deps.db, shop.id, content);
  const ctx = await loadNewsletterContext(deps.db, shop.id, deps.env.APP_URL);
  const me = (
    await deps.db.execute<{ email: string; first_name: string | null; balance: number | null }>(sql`
      select u.email, f.first_name, c.balance from "user" u left join profiles f on f.id = u.id
      left join cards c on c.user_id = u.id and c.shop_id = ${shop.id} where u.id = ${access.userId}`)
  ).rows[0];
  const balance = me?.balance ?? Math.max(0, (ctx.rewards[0]?.cost ?? 50) - 10);
  const url = unsubscribeUrl(
    deps.env.APP_URL,
    signUnsubscribeToken(deps.env.SECRET, { userId: access.userId, shopId: shop.id, deliveryId: null }),
  );
  const compiled = await compileNewsletter(content, ctx);
  const copy = personalize(
    compiled,
    {
      ...mergeValues({ firstName: me?.first_name ?? null, balance, mode: ctx.mode, rewards: ctx.rewards }),
      balance,
      unsubscribeUrl: url,
    },
    ctx,
  );
  return { copy, to: me?.email ?? "", url };
}

/** The preview: the campaign as the owner would receive it (HTML for the phone and desktop frames, and the text). */
export async function previewNewsletter(deps: Pick<Deps, "db" | "env">, access: ShopAccess, content: NewsletterContent) {
  const { copy } = await ownCopy(deps, access, content);
  return { subject: copy.subject, preheader: content.preheader, html: copy.html, text: copy.text };
}

/** A test copy to oneself (at most 10 in 10 minutes), with the real headers. */
export async function sendTestNewsletter(
  deps: Pick<Deps, "db" | "env" | "mailer">,
  access: ShopAccess,
  content: NewsletterContent,
) {
  await enforceThrottle(deps.db, `newsletter-test:${access.userId}`, 600, 10);
  const { copy, to, url } = await ownCopy(deps, access, content);
  if (!to) throw new AppError("NOT_FOUND", { userMessage: "Votre adresse e-mail est introuvable." });
  const result = await deps.mailer.send({
    to,
    kind: "newsletter",
    subject: `[Test] ${copy.subject}`,
    text: copy.text,
    html: copy.html,
    headers: marketingHeaders(url),
  });
  if (result && result.status === "failed") {
    throw new AppError("CONFLICT", { userMessage: "Le serveur d'e-mails a refusé l'envoi de test. Réessayez plus tard." });
  }
  return { sentTo: to, kept: !result || result.status === "kept" };
}

type NewsletterOutput = z.output<typeof newsletterSchema>;

export async function createNewsletter(
  deps: Pick<Deps, "db" | "jobs" | "logger" | "env">,
  access: ShopAccess,
  input: NewsletterOutput,
) {
  const { db } = deps;
  const shop = await ownShop(db, access);
  await checkSegment(db, shop.id, input.segment);
  await checkRewards(db, shop.id, input);
  const scheduled = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const later = scheduled !== null && scheduled.getTime() > Date.now() + 30_000;
  // The shop's quota of e-mail campaigns (messages/quota.ts), checked and taken in one transaction.
  const inserted = await db.transaction(async (tx) => {
    await enforceShopQuota(tx, deps.env, shop.id, "newsletter", later ? scheduled : new Date());
    return tx.execute<{ id: string }>(sql`
    insert into messages (shop_id, author_id, audience, segment, kind, title, body, subject, preheader, blocks,
      with_push, with_email, is_promotional, status, scheduled_at)
    values (${shop.id}, ${access.userId}, 'customers', ${JSON.stringify(input.segment)}::jsonb, 'newsletter',
      ${newsletterTitle(input)}, ${input.preheader || input.subject}, ${input.subject}, ${input.preheader},
      ${JSON.stringify(input.blocks)}::jsonb, false, true, true, 'scheduled', ${later ? scheduled.toISOString() : null})
    returning id`);
  });
  const id = inserted.rows[0]!.id;
  // The audience is frozen now (the count shown is the one sent to); the job engine sends, at the operator's rate.
  if (!later) await startSending(db, id);
  await enqueueSending(deps, id, later ? scheduled : undefined);
  return getNewsletter(db, access, id);
}

type Row = {
  id: string;
  subject: string;
  preheader: string | null;
  blocks: unknown;
  segment: Segment | null;
  tier_name: string | null;
  status: MessageStatus;
  scheduled_at: Date | null;
  started_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  total: number;
  pending: number;
  sent: number;
  failed: number;
  skipped: number;
  bounced: number;
  unsubscribed: number;
  opened: number;
};

const SELECT = sql`
  select m.id, m.subject, m.preheader, m.blocks, m.segment, m.status, m.scheduled_at, m.started_at, m.finished_at,
    m.created_at, (select t.name from vip_tiers t where t.id = m.segment->>'tierId') as tier_name,
    coalesce(k.total, 0) as total, coalesce(k.pending, 0) as pending, coalesce(k.sent, 0) as sent,
    coalesce(k.failed, 0) as failed, coalesce(k.skipped, 0) as skipped, coalesce(k.opened, 0) as opened,
    (select count(distinct x.delivery_id)::int from email_events x join message_deliveries d on d.id = x.delivery_id
      where d.message_id = m.id and x.kind in ('hard_bounce', 'complaint')) as bounced,
    (select count(distinct x.delivery_id)::int from email_events x join message_deliveries d on d.id = x.delivery_id
      where d.message_id = m.id and x.kind = 'unsubscribe') as unsubscribed
  from messages m
  left join lateral (
    select count(*)::int as total,
      count(*) filter (where d.status in ('pending', 'claimed'))::int as pending,
      count(*) filter (where d.status = 'delivered')::int as sent,
      count(*) filter (where d.status = 'failed')::int as failed,
      count(*) filter (where d.status = 'skipped')::int as skipped,
      count(*) filter (where d.read_at is not null)::int as opened
    from message_deliveries d where d.message_id = m.id and d.channel = 'email') k on true`;

function dto(r: Row) {
  return {
    id: r.id,
    subject: r.subject,
    preheader: r.preheader ?? "",
    blocks: r.blocks,
    audienceLabel: segmentLabelFr(r.segment ?? { kind: "all" }, r.tier_name),
    segment: r.segment ?? { kind: "all" },
    status: r.status,
    statusLabel: MESSAGE_STATUS_LABELS_FR[r.status],
    scheduledAt: r.scheduled_at,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
    createdAt: r.created_at,
    counts: {
      total: r.total,
      pending: r.pending,
      sent: r.sent,
      failed: r.failed,
      skipped: r.skipped,
      bounced: r.bounced,
      unsubscribed: r.unsubscribed,
      opened: r.opened,
    },
    progress: sendingProgress(r.total, r.pending, r.status),
  };
}
export type NewsletterDto = ReturnType<typeof dto>;

export async function listNewsletters(db: Db, access: ShopAccess) {
  const rows = await db.execute<Row>(sql`${SELECT}
    where m.kind = 'newsletter' and m.shop_id = ${shopScope(access)}
    order by coalesce(m.scheduled_at, m.created_at) desc limit 100`);
  return rows.rows.map(dto);
}

export async function getNewsletter(db: Db, access: ShopAccess, id: string) {
  const rows = await db.execute<Row>(
    sql`${SELECT} where m.id = ${id} and m.kind = 'newsletter' and m.shop_id = ${shopScope(access)}`,
  );
  const row = rows.rows[0];
  if (!row) throw notFound();
  return dto(row);
}
