import { sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import type { NewsletterContent } from "../../../domain/messages/newsletter-blocks.ts";
import { segmentLabelFr } from "../../../domain/messages/segments.ts";
import type { Db } from "../../db/client.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, scopedShop, shopScope } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import { copyFor, loadNewsletterContext, marketingHeaders, prepareContent } from "./channels/email-driver.ts";
import { checkRewards, composerContext } from "./compose.service.ts";
import { SENT_COLUMNS, type SentColumns, sendingStateOf } from "./sent.service.ts";

/**
 * /admin/newsletter: a shop's e-mail campaigns. A newsletter is a `messages` row of kind "newsletter" (subject,
 * preheader, blocks) created by the composer's pipeline (compose.service.ts) and sent on the e-mail channel only,
 * through the same engine: the audience frozen into message_deliveries, throttled claims, pause/resume, exactly
 * once (ADR 0021, 0024). Here: the editor's context, the owner's preview and test copy, and the campaigns' figures,
 * from the deliveries and from email_events (bounces, complaints, one-click unsubscribes).
 */
/** What the editor needs: the composer's (the shop's name, VIP levels, quota), its rewards (reward blocks), the send rate. */
export async function newsletterEditorContext(deps: Pick<Deps, "db" | "env">, access: ShopAccess) {
  const composer = await composerContext(deps.db, deps.env, access, "newsletter");
  const ctx = await loadNewsletterContext(deps.db, access.shopId, deps.env.APP_URL);
  return {
    ...composer,
    rewards: ctx.rewards.map((r) => ({ id: r.id, title: r.title, cost: r.cost })),
    mode: ctx.mode,
    ratePerSecond: deps.env.EMAIL_RATE_PER_SECOND,
    /** Whether opens are counted (the operator's EMAIL_OPEN_TRACKING; off by default). */
    openTracking: deps.env.EMAIL_OPEN_TRACKING,
  };
}

/** The owner's own copy: their first name and card at this shop (or an example balance). */
async function ownCopy(deps: Pick<Deps, "db" | "env">, access: ShopAccess, content: NewsletterContent) {
  const shop = await scopedShop(deps.db, access);
  await checkRewards(deps.db, shop.id, content);
  const prepared = await prepareContent(deps.db, shop.id, content, deps.env.APP_URL);
  const me = (
    await deps.db.execute<{ email: string; first_name: string | null; balance: number | null }>(sql`
      select u.email, f.first_name, c.balance from "user" u left join profiles f on f.id = u.id
      left join cards c on c.user_id = u.id and c.shop_id = ${shop.id} where u.id = ${access.userId}`)
  ).rows[0];
  const balance = me?.balance ?? Math.max(0, (prepared.ctx.rewards[0]?.cost ?? 50) - 10);
  const claim = { userId: access.userId, shopId: shop.id, deliveryId: null };
  const { copy, url } = copyFor(deps.env, prepared, { firstName: me?.first_name ?? null, balance }, claim);
  return { copy, to: me?.email ?? "", url };
}

/** The preview: the campaign as the owner would receive it (HTML for the phone and desktop frames, and the text). */
export async function previewNewsletter(
  deps: Pick<Deps, "db" | "env">,
  access: ShopAccess,
  content: NewsletterContent,
) {
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
    throw new AppError("CONFLICT", {
      userMessage: "Le serveur d'e-mails a refusé l'envoi de test. Réessayez plus tard.",
    });
  }
  return { sentTo: to, kept: !result || result.status === "kept" };
}

type Row = SentColumns & {
  subject: string;
  preheader: string | null;
  blocks: unknown;
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
  select ${SENT_COLUMNS}, m.subject, m.preheader, m.blocks,
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
    ...sendingStateOf(r),
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
  };
}

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
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Cette newsletter est introuvable." });
  return dto(row);
}
