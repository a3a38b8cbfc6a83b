import { boolean, date, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { timestampNow, userRef, uuidPk } from "./columns.ts";

/** The shopper's profile (SPEC §3 "profiles: id, last_seen"); id is the user's id. */
export const profiles = pgTable("profiles", {
  id: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  firstName: text(),
  lastName: text(),
  birthday: date({ mode: "string" }),
  postalCode: text(),
  /** Mobile number in E.164 (+33612345678), for SMS; its consent is in `consents` (channel "sms"). */
  phone: text(),
  lastSeen: timestamp({ withTimezone: true }),
  /** When the account was warned of its purge for inactivity (src/server/modules/accounts/inactive-purge.service.ts); null once active. */
  purgeWarnedAt: timestamp({ withTimezone: true }),
  createdAt: timestampNow(),
  updatedAt: timestampNow(),
});

/**
 * A shopper's personal code (« Ma carte client », src/domain/loyalty/personal-code.ts): random, unique, renewed
 * by the shopper (the old one stops working at once). Staff scan or type it to credit a visit.
 */
export const personalCodes = pgTable("personal_codes", {
  userId: text()
    .primaryKey()
    .references(() => user.id, { onDelete: "cascade" }),
  code: text().notNull().unique(),
  createdAt: timestampNow(),
});

/**
 * One row per consent given or withdrawn: the channel, the exact wording shown and
 * when (GDPR art. 7(1): the controller must be able to demonstrate consent).
 */
export const consents = pgTable(
  "consents",
  {
    id: uuidPk(),
    userId: userRef(),
    channel: text({ enum: ["email", "sms", "push"] }).notNull(),
    granted: boolean().notNull(),
    wording: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.userId, t.channel, t.createdAt)],
);

/** Every e-mail the product sends; with no SMTP configured this is where it stays. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: uuidPk(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text().notNull(),
    kind: text().notNull(),
    status: text({ enum: ["kept", "sent", "failed"] }).notNull(),
    error: text(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.createdAt)],
);

/** Failed-attempt counters shared by every server process (STACK.md: not in memory). */
export const authThrottle = pgTable("auth_throttle", {
  key: text().primaryKey(),
  windowStart: timestamp({ withTimezone: true }).notNull(),
  count: integer().notNull().default(0),
});

export type Profile = typeof profiles.$inferSelect;
export type ConsentChannel = (typeof consents.$inferSelect)["channel"];

/**
 * What the instance generates once and every process must share (the web-push VAPID key pair): written by the
 * first process to need it (`insert … on conflict do nothing`, then read), so two processes never hand out two
 * keys (src/server/lib/instance-keys.ts, ADR 0038).
 */
export const instanceKeys = pgTable("instance_keys", {
  name: text().primaryKey(),
  value: jsonb().notNull(),
  createdAt: timestampNow(),
});
