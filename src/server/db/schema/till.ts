import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { user } from "./auth.ts";
import { timestampNow, uuidPk } from "./columns.ts";
import { shopRef } from "./shops.ts";

/**
 * Fidèle beside the till (issue 29, ADR 0050): receipt codes spent once, API keys of a shop, the answers kept for
 * idempotency keys, and signed webhooks with their deliveries and attempts.
 */

/** A receipt code spent (ADR 0053): its id is unique per shop, so a code credits once whichever process sees it. */
export const receiptClaims = pgTable(
  "receipt_claims",
  {
    shopId: shopRef(),
    receiptId: text().notNull(),
    /** Null once the claimant's account is erased: the code stays spent. */
    userId: text().references(() => user.id, { onDelete: "set null" }),
    scanId: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.shopId, t.receiptId] })],
);

/** A shop's API key: only its SHA-256 is kept (the key is shown once); `prefix` lets the owner recognise it. */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuidPk(),
    shopId: shopRef(),
    name: text().notNull(),
    prefix: text().notNull(),
    secretHash: text().notNull().unique(),
    scopes: text().array().notNull(),
    createdBy: text().notNull(),
    createdAt: timestampNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.shopId)],
);

/** The first answer to a write sent with an idempotency key (null status: still being answered). */
export const apiIdempotency = pgTable(
  "api_idempotency",
  {
    keyId: text()
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    idempotencyKey: text().notNull(),
    /** The method, path and body the key was first used with: the same key with another request is refused. */
    fingerprint: text().notNull(),
    status: integer(),
    response: jsonb(),
    createdAt: timestampNow(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.idempotencyKey] })],
);

/** An address the owner subscribed to some events; `secret` is its whsec_ signing key (Standard Webhooks). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuidPk(),
    shopId: shopRef(),
    url: text().notNull(),
    events: text().array().notNull(),
    secret: text().notNull(),
    createdBy: text().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.shopId)],
);

/** One event for one endpoint: made once (unique event id per endpoint), tried until delivered or given up. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuidPk(),
    endpointId: text()
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    shopId: text().notNull(),
    eventId: text().notNull(),
    eventType: text().notNull(),
    payload: jsonb().notNull(),
    status: text({ enum: ["pending", "delivered", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer().notNull().default(0),
    lastAttemptAt: timestamp({ withTimezone: true }),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.endpointId, t.eventId), index().on(t.shopId, t.createdAt)],
);

/** Each try of a delivery, with what the receiver answered (the delivery log). */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: uuidPk(),
    deliveryId: text()
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    attempt: integer().notNull(),
    statusCode: integer(),
    error: text(),
    durationMs: integer().notNull(),
    /** Sent again by the owner (« Renvoyer »). */
    manual: boolean().notNull().default(false),
    createdAt: timestampNow(),
  },
  (t) => [uniqueIndex().on(t.deliveryId, t.attempt)],
);

/**
 * A shop's till account (issue 29 item 5, ADR 0051): Zettle, reached with the merchant's own API key (OAuth 2's
 * JWT-bearer grant); Zettle signs each event it pushes to /api/connectors/zettle/<hookId> with `signingKey`.
 * `refused`: Zettle no longer accepts the key (revoked by the merchant).
 */
export const tillConnections = pgTable(
  "till_connections",
  {
    shopId: shopRef().primaryKey(),
    vendor: text({ enum: ["zettle"] }).notNull(),
    clientId: text().notNull(),
    apiKey: text().notNull(),
    organizationUuid: text().notNull(),
    subscriptionUuid: text().notNull(),
    signingKey: text().notNull(),
    hookId: text().notNull().unique(),
    status: text({ enum: ["active", "refused"] })
      .notNull()
      .default("active"),
    createdBy: text().notNull(),
    createdAt: timestampNow(),
    lastEventAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("till_connections_vendor_check", sql`${t.vendor} in ('zettle') and ${t.status} in ('active', 'refused')`),
  ],
);

/**
 * Each sale or refund the till reported, once (its id is unique per shop and vendor): who it credited, how many
 * points moved (negative for a refund) and why not when none did.
 */
export const tillSales = pgTable(
  "till_sales",
  {
    shopId: shopRef(),
    vendor: text().notNull(),
    purchaseId: text().notNull(),
    kind: text({ enum: ["sale", "refund"] }).notNull(),
    refundsPurchaseId: text(),
    purchaseNumber: text(),
    userId: text().references(() => user.id, { onDelete: "set null" }),
    amountCents: integer().notNull(),
    points: integer().notNull().default(0),
    outcome: text().notNull(),
    scanId: text(),
    createdAt: timestampNow(),
  },
  (t) => [
    primaryKey({ columns: [t.shopId, t.vendor, t.purchaseId] }),
    check("till_sales_kind_check", sql`${t.kind} in ('sale', 'refund')`),
    index().on(t.shopId, t.createdAt),
    index("till_sales_refunds_index")
      .on(t.shopId, t.vendor, t.refundsPurchaseId)
      .where(sql`${t.refundsPurchaseId} is not null`),
  ],
);

/**
 * A shop's counter tablet (issue 29, ADR 0054): paired once through a one-time link, then known by its own
 * credential (an httpOnly cookie), never a user session. Only hashes are kept: the link's and the credential's
 * SHA-256 (256 random bits each), the staff PIN's scrypt. Revoked tablets stay listed, refused at once.
 */
export const counterTablets = pgTable(
  "counter_tablets",
  {
    id: uuidPk(),
    shopId: shopRef(),
    name: text().notNull(),
    /** scrypt$salt$hash of the staff PIN (4 to 8 digits) that unlocks amount entry. */
    pinHash: text().notNull(),
    /** The one-time pairing link's SHA-256 while it waits to be opened; null once used. */
    pairingHash: text().unique(),
    pairingExpiresAt: timestamp({ withTimezone: true }),
    /** The credential's SHA-256 once paired. */
    tokenHash: text().unique(),
    createdBy: text().notNull(),
    createdAt: timestampNow(),
    pairedAt: timestamp({ withTimezone: true }),
    lastSeenAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [index().on(t.shopId)],
);

/**
 * Each amount code a tablet made (ADR 0054): what staff typed behind the PIN, so the owner can set the day's codes
 * beside the till's takings, and see which were never scanned. Its claim is receipt_claims' row of the same id.
 */
export const tabletAmountCodes = pgTable(
  "tablet_amount_codes",
  {
    receiptId: text().primaryKey(),
    shopId: shopRef(),
    tabletId: text()
      .notNull()
      .references(() => counterTablets.id),
    amountCents: integer().notNull(),
    points: integer().notNull(),
    createdAt: timestampNow(),
  },
  (t) => [index().on(t.tabletId, t.createdAt)],
);
