import { date, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { cards } from "./cards.ts";
import { shops } from "./shops.ts";
import { timestampNow, userRef } from "./columns.ts";

/**
 * A card in a phone's wallet (issue 26, ADR 0045): made when the shopper first asks for the Apple pass or the Google
 * save link, one per card. Deleted with the account (erasure): the Apple web service then answers 401 for it, and the
 * Google object is expired first (modules/wallet). `contentHash` is a hash of what the pass shows (balance, next
 * reward, shop, personal code…); `updatedAt` is when it last changed: Apple's Last-Modified and passesUpdatedSince.
 */
export const walletPasses = pgTable(
  "wallet_passes",
  {
    cardId: text()
      .primaryKey()
      .references(() => cards.id, { onDelete: "cascade" }),
    userId: userRef(),
    /** Apple's `authenticationToken` (the device sends it back as `ApplePass <token>`): random, never exported. */
    authToken: text().notNull(),
    contentHash: text().notNull(),
    updatedAt: timestampNow(),
    /** When a sweep last compared this pass with its sources (cards, shops, rewards, personal codes). */
    checkedAt: timestampNow(),
    /** The content the devices were last told about (APNs), and when: at most one push a card a minute. */
    applePushedHash: text(),
    applePushedAt: timestamp({ withTimezone: true }),
    /** Google: the save link was made (the object may exist), the content last PATCHed, notifications today. */
    googleIssuedAt: timestamp({ withTimezone: true }),
    googleSyncedHash: text(),
    googleNotifiedOn: date({ mode: "string" }),
    googleNotifiedCount: integer().notNull().default(0),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.userId)],
);

/**
 * An Apple device registered for a pass's updates (PassKit web service): the device library id and its push token.
 * Goes with the pass; a 410 from APNs removes it.
 */
export const walletRegistrations = pgTable(
  "wallet_registrations",
  {
    deviceId: text().notNull(),
    cardId: text()
      .notNull()
      .references(() => walletPasses.cardId, { onDelete: "cascade" }),
    pushToken: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.deviceId, t.cardId] }), index().on(t.cardId)],
);

/**
 * A shop's Google Wallet loyalty class as last sent to Google (its name, programme, logo, colour): a hash, so a
 * change (the shop renamed, a new logo) PATCHes the class once, not at every card's update. The save link carries
 * the class as it is; later PATCHes keep it so (modules/wallet/updates.service.ts).
 */
export const walletGoogleClasses = pgTable("wallet_google_classes", {
  shopId: text()
    .primaryKey()
    .references(() => shops.id, { onDelete: "cascade" }),
  hash: text().notNull(),
  syncedAt: timestampNow(),
});
