import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import type { Segment } from "../../../domain/messages/segments.ts";
import { user } from "./auth.ts";
import { shops } from "./shops.ts";
import { timestampNow, userRef, uuidPk } from "./columns.ts";

/**
 * A message a shop (or, with no shop, the platform) sends. Its audience is frozen
 * into `message_deliveries` when sending starts; `status` is what the owner sees and
 * steers (pause, resume, cancel a scheduled one).
 */
export const messages = pgTable(
  "messages",
  {
    id: uuidPk(),
    /** Null: a platform announcement (/admin/push). */
    shopId: text().references(() => shops.id, { onDelete: "cascade" }),
    authorId: text().references(() => user.id, { onDelete: "set null" }),
    /**
     * "customers" (a shop's, filtered by `segment`), "all_shoppers" or "all_owners" (platform), or "occasions" (an
     * automation's: the people of its `automation_occasions` rows that name this message).
     */
    audience: text({ enum: ["customers", "all_shoppers", "all_owners", "occasions", "review_requests"] }).notNull(),
    segment: jsonb().$type<Segment>(),
    title: text().notNull(),
    body: text().notNull(),
    imageUrl: text(),
    linkUrl: text(),
    /** Whether push is used for those who accepted it (in-app is always used). */
    withPush: boolean().notNull().default(true),
    /** Whether e-mail is used for those who accepted it from this sender (issue 15). */
    withEmail: boolean().notNull().default(false),
    /** Whether SMS is used for those who accepted it and gave a number (issue 15). */
    withSms: boolean().notNull().default(false),
    /**
     * "newsletter": an e-mail campaign of /admin/newsletter (subject, preheader, blocks), sent by e-mail only.
     * "notice": an in-app message to one person about their own affairs (a contest win: messages/notice.service.ts).
     * "automation": sent by an automation (issue 27), to the people of its occasions.
     */
    kind: text({ enum: ["message", "newsletter", "notice", "automation"] })
      .notNull()
      .default("message"),
    /** Newsletter only: the e-mail's subject, preheader and content blocks (src/domain/messages/newsletter-blocks.ts). */
    subject: text(),
    preheader: text(),
    blocks: jsonb().$type<unknown[]>(),
    /** Promotional pushes count against the frequency cap. */
    isPromotional: boolean().notNull().default(true),
    status: text({ enum: ["scheduled", "sending", "paused", "sent", "cancelled"] }).notNull(),
    scheduledAt: timestamp({ withTimezone: true }),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    /** How many deliveries the frozen audience gave. */
    total: integer().notNull().default(0),
    createdAt: timestampNow(),
  },
  (t) => [
    index().on(t.shopId, t.createdAt),
    index("messages_due_idx").on(t.scheduledAt).where(sql`${t.status} in ('scheduled', 'sending')`),
  ],
);

/**
 * One row per (message, recipient, channel), created when sending starts: the unique
 * index makes the audience freeze idempotent, and a row moves from pending to
 * delivered/failed/skipped once, so two processes never deliver it twice and a killed
 * process leaves the rest pending. In-app rows are the inbox (read_at).
 */
export const messageDeliveries = pgTable(
  "message_deliveries",
  {
    id: uuidPk(),
    messageId: text()
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    userId: userRef(),
    channel: text({ enum: ["inapp", "push", "email", "sms"] }).notNull(),
    status: text({ enum: ["pending", "claimed", "delivered", "failed", "skipped"] })
      .notNull()
      .default("pending"),
    /** Why it failed or was skipped (frequency cap, no device…). */
    detail: text(),
    claimedAt: timestamp({ withTimezone: true }),
    /** Not before this time (a push service asked to wait: 429 Retry-After). */
    notBefore: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    readAt: timestamp({ withTimezone: true }),
    clickedAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [
    uniqueIndex().on(t.messageId, t.userId, t.channel),
    index().on(t.messageId, t.status),
    index("message_deliveries_inbox_idx")
      .on(t.userId, t.createdAt)
      .where(sql`${t.channel} = 'inapp' and ${t.status} = 'delivered'`),
    /** The frequency cap across channels (modules/messages/frequency-cap.ts). */
    index("message_deliveries_cap_idx").on(t.userId, t.deliveredAt).where(sql`${t.status} = 'delivered'`),
    index("message_deliveries_push_cap_idx")
      .on(t.userId, t.deliveredAt)
      .where(sql`${t.channel} = 'push' and ${t.status} = 'delivered'`),
  ],
);

/**
 * A browser's push subscription (one per device: `deviceId` is the app's own id for
 * it). `checkedAt` is when the device last confirmed it; removed when the push
 * service answers 404 or 410.
 */
export const pushSubscriptions = pgTable(
  "push_subscriptions",
  {
    id: uuidPk(),
    userId: userRef(),
    deviceId: text().notNull().unique(),
    endpoint: text().notNull().unique(),
    p256dh: text().notNull(),
    auth: text().notNull(),
    userAgent: text(),
    checkedAt: timestampNow(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.userId)],
);

/**
 * The shopper's choices on /notif, append-only (proof of consent: what was chosen,
 * the wording shown, when). `shopId` null: the choice for every sender. The global
 * push choice lives in `consents` (channel "push") with the profile's, one home.
 */
export const messagePreferences = pgTable(
  "message_preferences",
  {
    id: uuidPk(),
    userId: userRef(),
    shopId: text().references(() => shops.id, { onDelete: "cascade" }),
    channel: text({ enum: ["inapp", "push", "email", "sms"] }).notNull(),
    granted: boolean().notNull(),
    wording: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.userId, t.shopId, t.channel, t.createdAt)],
);

/**
 * Claim pacing of a channel whose driver has a rate (ChannelDriver.ratePerSecond), shared
 * by every process: a claim of n rows moves `next_at` on by n / rate seconds, and nobody
 * claims that channel before `next_at`.
 */
export const channelPacing = pgTable("channel_pacing", {
  channel: text().primaryKey(),
  nextAt: timestampNow(),
});

export type MessageRow = typeof messages.$inferSelect;
