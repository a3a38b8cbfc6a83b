import { sql } from "drizzle-orm";
import {
  mergeValues,
  newsletterContentSchema,
  type NewsletterContent,
} from "../../../../domain/messages/newsletter-blocks.ts";
import { encodeUrlBraces } from "../../../../domain/schemas/links.ts";
import type { CardMode } from "../../../../domain/format.ts";
import type { Db } from "../../../db/client.ts";
import type { Env } from "../../../env.ts";
import type { Mailer } from "../../mail/mail.service.ts";
import { acceptsSql, suppressedSql } from "../consent.ts";
import type { ChannelContext, ChannelDriver, ChannelOutcome, MessageForChannel } from "./driver.ts";
import {
  type CompiledNewsletter,
  compileNewsletter,
  messageAsContent,
  type NewsletterContext,
  personalize,
} from "./email-render.ts";
import { type FrozenValues, frozenValuesOf } from "../merge-values.ts";
import { signUnsubscribeToken, type UnsubscribeClaim, unsubscribeUrl } from "../unsubscribe/unsubscribe-token.ts";

/**
 * The e-mail channel (channels.ts): a newsletter, or a composer message's e-mail copy.
 * `prepare` compiles the campaign once (MJML); `deliver` fills one recipient's copy and
 * sends it through the mailer with RFC 8058 one-click unsubscribe headers. An SMTP 5xx
 * is a hard bounce: the address is suppressed (email_events) and never mailed again.
 * A suppressed or unsubscribed address met mid-campaign is skipped.
 */
type EmailDriverDeps = { mailer: Mailer; env: Pick<Env, "APP_URL" | "SECRET" | "EMAIL_OPEN_TRACKING"> };

type PreparedEmail = { compiled: CompiledNewsletter; ctx: NewsletterContext; kind: "newsletter" | "message" };

/** A transient SMTP failure (4xx, connection refused) is tried again after this. */
const EMAIL_RETRY_MS = 60_000;
/** How many e-mails one process has in flight at once (one SMTP connection each; the rate caps the pace). */
const EMAIL_CONCURRENCY = 8;

type MessageContentRow = {
  kind: "message" | "newsletter";
  subject: string | null;
  preheader: string | null;
  blocks: unknown;
  title: string;
  body: string;
  image_url: string | null;
  link_url: string | null;
};

/** Everything a campaign's copies share: the shop, its rewards, the compiled template. */
export async function loadNewsletterContext(db: Db, shopId: string | null, appUrl: string): Promise<NewsletterContext> {
  if (!shopId) return { shopName: "Fidèle", shopSlug: "", mode: "points", rewards: [], appUrl };
  const shop = (
    await db.execute<{ name: string; slug: string; card_mode: CardMode }>(
      sql`select name, slug, card_mode from shops where id = ${shopId}`,
    )
  ).rows[0];
  const rewards = await db.execute<{ id: string; title: string; cost: number; description: string | null }>(sql`
    select id, title, cost, description from rewards
    where shop_id = ${shopId} and is_active and archived_at is null order by cost, position`);
  return {
    shopName: shop?.name ?? "Fidèle",
    shopSlug: shop?.slug ?? "",
    mode: shop?.card_mode ?? "points",
    rewards: rewards.rows.map((r) => ({ ...r, cost: Number(r.cost) })),
    appUrl,
  };
}

/** A stored block's address with its braces encoded: a campaign saved before merge fields were refused in addresses still sends, never filling them (ADR 0035). */
const storedBlock = (block: unknown) =>
  block && typeof block === "object" && "url" in block && typeof block.url === "string"
    ? { ...block, url: encodeUrlBraces(block.url) }
    : block;

function contentOfRow(row: MessageContentRow, appUrl: string): NewsletterContent {
  return row.kind === "newsletter"
    ? newsletterContentSchema.parse({
        subject: row.subject,
        preheader: row.preheader ?? "",
        blocks: Array.isArray(row.blocks) ? row.blocks.map(storedBlock) : row.blocks,
      })
    : messageAsContent(row, appUrl);
}

/** A campaign compiled once for its shop (MJML), ready for each recipient's copy. */
export async function prepareContent(db: Db, shopId: string | null, content: NewsletterContent, appUrl: string) {
  const ctx = await loadNewsletterContext(db, shopId, appUrl);
  return { compiled: await compileNewsletter(content, ctx), ctx };
}

async function prepareEmail(db: Db, messageId: string, appUrl: string): Promise<PreparedEmail> {
  const row = (
    await db.execute<MessageContentRow & { shop_id: string | null }>(sql`
      select shop_id, kind, subject, preheader, blocks, title, body, image_url, link_url from messages where id = ${messageId}`)
  ).rows[0];
  if (!row) throw new Error(`message ${messageId} not found`);
  return { ...(await prepareContent(db, row.shop_id, contentOfRow(row, appUrl), appUrl)), kind: row.kind };
}

/** One recipient's copy (a delivery's, or the owner's preview and test): merge fields filled, their unsubscribe address. */
export function copyFor(
  env: Pick<Env, "APP_URL" | "SECRET">,
  prepared: Pick<PreparedEmail, "compiled" | "ctx">,
  who: { firstName: string | null; balance: number },
  claim: UnsubscribeClaim,
  /** The values kept when it was decided (an automation's, merge-values.ts); else worked out now. */
  frozen: FrozenValues | null = null,
) {
  const { compiled, ctx } = prepared;
  const url = unsubscribeUrl(env.APP_URL, signUnsubscribeToken(env.SECRET, claim));
  const values =
    frozen ?? mergeValues({ firstName: who.firstName, balance: who.balance, mode: ctx.mode, rewards: ctx.rewards });
  return { copy: personalize(compiled, { ...values, balance: who.balance, unsubscribeUrl: url }, ctx), url };
}

type Recipient = {
  email: string;
  first_name: string | null;
  balance: number | null;
  refused: boolean;
  suppressed: boolean;
};

/** The recipient's address and merge data, and whether they may no longer be mailed (suppressed, unsubscribed since). */
async function recipientOf(db: Db, userId: string, shopId: string | null): Promise<Recipient | undefined> {
  return (
    await db.execute<Recipient>(sql`
      select u.email, f.first_name, c.balance,
        not ${acceptsSql(sql`u.id`, shopId ? sql`${shopId}` : null, "email")} as refused,
        ${suppressedSql(sql`lower(u.email)`)} as suppressed
      from "user" u
      left join profiles f on f.id = u.id
      left join cards c on c.user_id = u.id and c.shop_id = ${shopId}
      where u.id = ${userId}`)
  ).rows[0];
}

/** The headers of every marketing e-mail: one-click unsubscribe (RFC 8058 §3.1; RFC 2369). */
export function marketingHeaders(url: string): Record<string, string> {
  return { "List-Unsubscribe": `<${url}>`, "List-Unsubscribe-Post": "List-Unsubscribe=One-Click" };
}

async function deliverEmail(
  deps: EmailDriverDeps,
  db: Db,
  message: MessageForChannel,
  delivery: { id: string; user_id: string },
  prepared: PreparedEmail,
): Promise<ChannelOutcome> {
  const who = await recipientOf(db, delivery.user_id, message.shop_id);
  if (!who) return { status: "skipped", detail: "no account" };
  if (who.suppressed) return { status: "skipped", detail: "suppressed" };
  if (who.refused) return { status: "skipped", detail: "unsubscribed" };
  const claim = { userId: delivery.user_id, shopId: message.shop_id, deliveryId: delivery.id };
  const { copy, url } = copyFor(
    deps.env,
    prepared,
    { firstName: who.first_name, balance: Number(who.balance ?? 0) },
    claim,
    message.kind === "automation" ? await frozenValuesOf(db, message.id, delivery.user_id) : null,
  );
  // Opens are counted only when the operator turned it on (EMAIL_OPEN_TRACKING): an invisible image, nothing else.
  if (deps.env.EMAIL_OPEN_TRACKING) {
    const pixel = `${deps.env.APP_URL.replace(/\/$/, "")}/api/email/open/${signUnsubscribeToken(deps.env.SECRET, claim, "open")}`;
    copy.html = copy.html.replace(
      /<\/body>/i,
      `<img src="${pixel}" width="1" height="1" alt="" style="display:block;border:0;width:1px;height:1px"></body>`,
    );
  }
  const host = new URL(deps.env.APP_URL).hostname;
  const result = await deps.mailer.send({
    to: who.email,
    kind: prepared.kind,
    subject: copy.subject,
    text: copy.text,
    html: copy.html,
    headers: marketingHeaders(url),
    messageId: `${delivery.id}@${host}`,
  });
  if (result?.status !== "failed") return { status: "delivered" };
  if (result.permanent) {
    await db.execute(sql`
      insert into email_events (email, kind, delivery_id, detail)
      values (${who.email.toLowerCase()}, 'hard_bounce', ${delivery.id}, ${result.error.slice(0, 500)})`);
    return { status: "failed", detail: `hard bounce: ${result.error.slice(0, 300)}` };
  }
  return { status: "deferred", notBefore: new Date(Date.now() + EMAIL_RETRY_MS) };
}

/** Compiled templates by message, kept briefly: a batch prepares once, the next batches reuse it. */
const compiledCache = new Map<string, { at: number; prepared: Promise<PreparedEmail> }>();
const CACHE_MS = 60_000;

/** The e-mail driver (drivers.ts): the mailer and the operator's rate come from the app's deps. */
export const emailDriver: ChannelDriver = {
  channel: "email",
  concurrency: EMAIL_CONCURRENCY,
  ratePerSecond: (env) => env.EMAIL_RATE_PER_SECOND,
  prepare: async (ctx: ChannelContext, message: MessageForChannel) => {
    const now = Date.now();
    for (const [id, entry] of compiledCache) if (now - entry.at > CACHE_MS) compiledCache.delete(id);
    let entry = compiledCache.get(message.id);
    if (!entry) {
      entry = { at: now, prepared: prepareEmail(ctx.db, message.id, ctx.deps.env.APP_URL) };
      compiledCache.set(message.id, entry);
      entry.prepared.catch(() => compiledCache.delete(message.id));
    }
    return entry.prepared;
  },
  deliver: async (ctx, message, delivery, prepared) => {
    try {
      return await deliverEmail(ctx.deps, ctx.db, message, delivery, prepared as PreparedEmail);
    } catch (error) {
      // Before the mailer was reached (a read failed): nothing left, try again later.
      ctx.logger?.error("email delivery failed", {
        messageId: message.id,
        error: error instanceof Error ? error.message : String(error),
      });
      return { status: "deferred", notBefore: new Date(Date.now() + EMAIL_RETRY_MS) };
    }
  },
};
