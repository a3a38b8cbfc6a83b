import { type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import {
  type NewsletterContent,
  newsletterTitle,
  type newsletterSchema,
} from "../../../domain/messages/newsletter-blocks.ts";
import type { announceSchema, composeSchema, PlatformAudience, Segment } from "../../../domain/messages/segments.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, scopedShop, shopScope } from "../../lib/shop-access.ts";
import { type AudienceSpec, countAudience } from "./audience.ts";
import { enforceShopQuota, type QuotaKind, quotaUse } from "./quota.ts";
import { enqueueSending, startSending } from "./sending.service.ts";

/**
 * One pipeline for every message a sender creates (ADR 0024: a newsletter is a kind of message): the composer's
 * (/admin/envoyer-un-message), a platform announcement (/admin/push) and a newsletter (/admin/newsletter) are
 * checked, counted against the shop's quota, stored as one `messages` row, and frozen into deliveries now or at
 * their time, by the same steps. A sender is a shop (scoped by `shopScope`, so another shop's message is "not
 * found") or the platform (shop null).
 */
export type Sender = { kind: "shop"; access: ShopAccess } | { kind: "platform"; userId: string };

export function senderWhere(sender: Sender): SQL {
  return sender.kind === "shop" ? sql`m.shop_id = ${shopScope(sender.access)}` : sql`m.shop_id is null`;
}

/** `email` and `sms` may be left out (callers from before those channels: benches, tests): not used. */
type MessageInput = (
  | Omit<z.output<typeof composeSchema>, "email" | "sms">
  | Omit<z.output<typeof announceSchema>, "email">
) & {
  email?: boolean;
  sms?: boolean;
};

/** What a sender asks to send: a message (in-app, and the channels ticked), or a shop's newsletter (e-mail only). */
type MessageDraft =
  | ({ kind?: "message" } & MessageInput)
  | ({ kind: "newsletter" } & z.output<typeof newsletterSchema>);

const NOT_FOUND_FR: Record<QuotaKind, string> = {
  message: "Ce message est introuvable.",
  newsletter: "Cette newsletter est introuvable.",
};

/** Who the draft goes to, checked: the shop the person still manages and a VIP level of its own, or a platform audience. */
async function audienceOf(
  db: Db,
  sender: Sender,
  target: { segment?: Segment; audience?: PlatformAudience },
): Promise<AudienceSpec> {
  if (sender.kind === "platform") return { kind: target.audience ?? "all_shoppers" };
  const segment = target.segment ?? { kind: "all" };
  await scopedShop(db, sender.access);
  if (segment.kind === "vip") {
    const tier = await db.execute(
      sql`select 1 from vip_tiers where id = ${segment.tierId} and shop_id = ${sender.access.shopId}`,
    );
    if (!tier.rows[0]) {
      throw new AppError("VALIDATION", {
        userMessage: "Ce niveau VIP n'existe pas dans votre boutique.",
        fields: { "segment.tierId": "Niveau introuvable." },
      });
    }
  }
  return { kind: "customers", shopId: sender.access.shopId, segment };
}

/** A newsletter's reward blocks must name a reward of this shop that is still offered. */
export async function checkRewards(db: Db, shopId: string, content: NewsletterContent) {
  const ids = content.blocks.flatMap((b) => (b.type === "reward" ? [b.rewardId] : []));
  if (ids.length === 0) return;
  const found = await db.execute<{ id: string }>(sql`
    select id from rewards where shop_id = ${shopId} and is_active and archived_at is null
      and id in (${sql.join(
        ids.map((id) => sql`${id}`),
        sql`, `,
      )})`);
  const known = new Set(found.rows.map((r) => r.id));
  const index = content.blocks.findIndex((b) => b.type === "reward" && !known.has(b.rewardId));
  if (index >= 0) {
    throw new AppError("VALIDATION", {
      userMessage: "Cette récompense n'est plus proposée par votre boutique.",
      fields: { [`blocks.${index}.rewardId`]: "Récompense introuvable." },
    });
  }
}

/**
 * How many people a message would reach: on any channel, and by each outward channel asked for. A newsletter
 * (`inapp` false) counts its e-mail recipients only.
 */
export async function countRecipients(
  db: Db,
  sender: Sender,
  target: {
    segment?: Segment;
    audience?: PlatformAudience;
    inapp?: boolean;
    push: boolean;
    email?: boolean;
    sms?: boolean;
  },
) {
  return countAudience(db, await audienceOf(db, sender, target), {
    inapp: target.inapp ?? true,
    push: target.push,
    email: target.email ?? false,
    sms: target.sms ?? false,
  });
}

/** What the composer and the newsletter editor need: the shop's name, its VIP levels (segments), its quota used. */
export async function composerContext(db: Db, env: Env, access: ShopAccess, kind: QuotaKind = "message") {
  const shop = await scopedShop(db, access);
  const tiers = await db.execute<{ id: string; name: string; threshold: number }>(
    sql`select id, name, threshold from vip_tiers where shop_id = ${shop.id} order by threshold`,
  );
  return { shopName: shop.name, tiers: tiers.rows, quota: await quotaUse(db, env, shop.id, kind, new Date()) };
}

/** The columns of the draft's `messages` row besides who sends it and when. */
function contentColumns(draft: MessageDraft) {
  if (draft.kind === "newsletter") {
    return {
      title: newsletterTitle(draft),
      body: draft.preheader || draft.subject,
      newsletter: { subject: draft.subject, preheader: draft.preheader, blocks: JSON.stringify(draft.blocks) },
      imageUrl: null,
      linkUrl: null,
      channels: { push: false, email: true, sms: false },
    };
  }
  return {
    title: draft.title,
    body: draft.body,
    newsletter: { subject: null, preheader: null, blocks: null },
    imageUrl: draft.imageUrl ?? null,
    linkUrl: draft.linkUrl ?? null,
    channels: { push: draft.push, email: draft.email ?? false, sms: draft.sms ?? false },
  };
}

/**
 * Creates a message or a newsletter and returns its id: its audience checked, the shop's quota of its kind taken
 * in the transaction that inserts it (quota.ts), the audience frozen now (the count shown is the one sent to) or
 * at its time, the sending queued on the job engine.
 */
export async function createMessage(
  deps: Pick<Deps, "db" | "jobs" | "logger" | "env">,
  sender: Sender,
  draft: MessageDraft,
) {
  const { db } = deps;
  const kind: QuotaKind = draft.kind ?? "message";
  if (kind === "newsletter" && sender.kind !== "shop") throw new Error("a newsletter is a shop's");
  const spec = await audienceOf(db, sender, {
    segment: "segment" in draft ? draft.segment : undefined,
    audience: "audience" in draft ? draft.audience : undefined,
  });
  if (draft.kind === "newsletter" && sender.kind === "shop") await checkRewards(db, sender.access.shopId, draft);
  const scheduled = draft.scheduledAt ? new Date(draft.scheduledAt) : null;
  const later = scheduled !== null && scheduled.getTime() > Date.now() + 30_000 ? scheduled : null;
  const c = contentColumns(draft);
  const shopId = sender.kind === "shop" ? sender.access.shopId : null;
  const id = await db.transaction(async (tx) => {
    if (shopId) await enforceShopQuota(tx, deps.env, shopId, kind, later ?? new Date());
    return insertMessage(tx, {
      shopId,
      authorId: sender.kind === "shop" ? sender.access.userId : sender.userId,
      audience: spec.kind,
      segment: spec.kind === "customers" ? spec.segment : null,
      kind,
      ...c,
      isPromotional: shopId !== null,
      scheduledAt: later,
    });
  });
  await launchMessage(deps, id, later);
  return id;
}

/** A send's `messages` row as its creators give it (the composer, a newsletter, an automation). */
type NewMessage = {
  shopId: string | null;
  authorId: string | null;
  audience: "customers" | "all_shoppers" | "all_owners" | "occasions" | "review_requests";
  segment: Segment | null;
  kind: "message" | "newsletter" | "automation";
  title: string;
  body: string;
  newsletter: { subject: string | null; preheader: string | null; blocks: string | null };
  imageUrl: string | null;
  linkUrl: string | null;
  channels: { push: boolean; email: boolean; sms: boolean };
  isPromotional: boolean;
  /** When it leaves; null: now (an automation gives now, so the sweep finds it if its process dies before it starts). */
  scheduledAt: Date | null;
};

/** Inserts a send's row, « scheduled », inside its creator's transaction (after its checks); returns its id. */
export async function insertMessage(tx: Db, m: NewMessage): Promise<string> {
  const inserted = await tx.execute<{ id: string }>(sql`
    insert into messages (shop_id, author_id, audience, segment, kind, title, body, subject, preheader, blocks,
      image_url, link_url, with_push, with_email, with_sms, is_promotional, status, scheduled_at)
    values (${m.shopId}, ${m.authorId}, ${m.audience}, ${m.segment ? JSON.stringify(m.segment) : null}::jsonb, ${m.kind},
      ${m.title}, ${m.body}, ${m.newsletter.subject}, ${m.newsletter.preheader}, ${m.newsletter.blocks}::jsonb,
      ${m.imageUrl}, ${m.linkUrl}, ${m.channels.push}, ${m.channels.email}, ${m.channels.sms}, ${m.isPromotional},
      'scheduled', ${m.scheduledAt?.toISOString() ?? null})
    returning id`);
  return inserted.rows[0]!.id;
}

/**
 * Once its row is committed: a send due now has its audience frozen at once (the count shown is the one sent to),
 * a later one at its time; its sending is queued on the job engine either way.
 */
export async function launchMessage(deps: Pick<Deps, "db" | "jobs" | "logger">, id: string, later: Date | null) {
  if (!later) await startSending(deps.db, id);
  await enqueueSending(deps, id, later ?? undefined);
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

/**
 * Pause, resume, or cancel a message or a newsletter of this sender (a scheduled or paused one: what was not
 * delivered yet stays undelivered). Another sender's, or one of another kind, is "not found".
 */
export async function changeMessageStatus(
  deps: Pick<Deps, "db" | "jobs" | "logger">,
  sender: Sender,
  id: string,
  action: keyof typeof TRANSITIONS,
  kind: QuotaKind = "message",
) {
  const { db } = deps;
  const t = TRANSITIONS[action];
  const mine = sql`m.id = ${id} and m.kind = ${kind} and ${senderWhere(sender)}`;
  const changed = await db.execute<{ id: string }>(sql`
    update messages m set status = ${t.to}
    where ${mine} and m.status in (${sql.join(
      t.from.map((s) => sql`${s}`),
      sql`, `,
    )}) returning m.id`);
  if (!changed.rows[0]) {
    const exists = await db.execute(sql`select 1 from messages m where ${mine}`);
    if (!exists.rows[0]) throw new AppError("NOT_FOUND", { userMessage: NOT_FOUND_FR[kind] });
    throw new AppError("CONFLICT", { userMessage: t.refusal });
  }
  if (action === "cancel") {
    await db.execute(
      sql`update message_deliveries set status = 'skipped', detail = 'cancelled' where message_id = ${id} and status = 'pending'`,
    );
  }
  if (action === "resume") await enqueueSending(deps, id);
}
