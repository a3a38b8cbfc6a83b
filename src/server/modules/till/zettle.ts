import { createHash, createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Env } from "../../env.ts";
import { type OutboundPolicy, type OutboundResponse, outboundRequest } from "../../lib/outbound.ts";
import { safeEqual } from "../../../domain/loyalty/scan-code.ts";

/**
 * Zettle's documented APIs, as the connector uses them (issue 29 item 5, ADR 0051;
 * github.com/iZettle/api-documentation): the OAuth API's JWT-bearer grant with the merchant's own API key, its
 * `users/self`, the Pusher API's subscriptions (webhooks signed with HMAC-SHA256 over "<timestamp>.<payload>"),
 * and the Purchase API's v2 purchase. Every request goes through the one outbound door.
 */

const OAUTH = "https://oauth.zettle.com";
const PURCHASE = "https://purchase.izettle.com";
const PUSHER = "https://pusher.izettle.com";
const TIMEOUT_MS = 10_000;

type ZettleConfig = { oauthUrl: string; purchaseUrl: string; pusherUrl: string; policy: OutboundPolicy };

export function zettleConfig(env: Env): ZettleConfig {
  const trusted = [env.ZETTLE_OAUTH_URL, env.ZETTLE_PURCHASE_URL, env.ZETTLE_PUSHER_URL].filter((u): u is string =>
    Boolean(u),
  );
  const base = (configured: string | undefined, fallback: string) => (configured ?? fallback).replace(/\/+$/, "");
  return {
    oauthUrl: base(env.ZETTLE_OAUTH_URL, OAUTH),
    purchaseUrl: base(env.ZETTLE_PURCHASE_URL, PURCHASE),
    pusherUrl: base(env.ZETTLE_PUSHER_URL, PUSHER),
    policy: {
      purpose: "zettle",
      hosts: [OAUTH, PURCHASE, PUSHER].map((u) => new URL(u).hostname),
      protocols: [...new Set(["https:" as const, ...trusted.map((u) => new URL(u).protocol as "https:" | "http:")])],
      ports: [443],
      trustedOrigins: trusted.map((u) => new URL(u).origin),
    },
  };
}

/** Zettle no longer accepts the merchant's key (revoked, or never valid): nothing will work until a new one. */
export class ZettleKeyRefused extends Error {
  constructor() {
    super("zettle refused the API key");
    this.name = "ZettleKeyRefused";
  }
}

/** Zettle answered something else than expected: a passing failure, tried again later. */
class ZettleUnavailable extends Error {
  constructor(what: string, response: OutboundResponse) {
    super(`zettle ${what}: HTTP ${response.status}`);
    this.name = "ZettleUnavailable";
  }
}

type ZettleKey = { clientId: string; apiKey: string };

/** Access tokens by key (Zettle's last 7,200 s): renewed a minute before they end. */
const tokens = new Map<string, { value: string; renewAt: number }>();
const tokenKey = (key: ZettleKey) => createHash("sha256").update(`${key.clientId}:${key.apiKey}`).digest("hex");

async function zettleToken(config: ZettleConfig, key: ZettleKey): Promise<string> {
  const cacheKey = tokenKey(key);
  const known = tokens.get(cacheKey);
  if (known && known.renewAt > Date.now()) return known.value;
  const response = await outboundRequest(`${config.oauthUrl}/token`, config.policy, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
    body: new URLSearchParams({
      grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer",
      client_id: key.clientId,
      assertion: key.apiKey,
    }).toString(),
    timeoutMs: TIMEOUT_MS,
  });
  if (response.status === 400 || response.status === 401) {
    tokens.delete(cacheKey);
    throw new ZettleKeyRefused();
  }
  const answer = response.status === 200 ? tokenAnswer.safeParse(parseJson(response.body)) : null;
  if (!answer?.success) throw new ZettleUnavailable("token", response);
  const lifetime = Math.max(120, answer.data.expires_in ?? 7200);
  tokens.set(cacheKey, { value: answer.data.access_token, renewAt: Date.now() + (lifetime - 60) * 1000 });
  return answer.data.access_token;
}

const tokenAnswer = z.object({ access_token: z.string().min(1), expires_in: z.number().optional() });

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

async function call(config: ZettleConfig, key: ZettleKey, url: string, method: string, body?: unknown) {
  const token = await zettleToken(config, key);
  const response = await outboundRequest(url, config.policy, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    timeoutMs: TIMEOUT_MS,
  });
  if (response.status === 401) {
    tokens.delete(tokenKey(key));
    throw new ZettleKeyRefused();
  }
  return response;
}

/** The merchant's organisation (users/self). */
export async function zettleOrganization(config: ZettleConfig, key: ZettleKey): Promise<string> {
  const response = await call(config, key, `${config.oauthUrl}/users/self`, "GET");
  const answer =
    response.status === 200
      ? z.object({ organizationUuid: z.string().min(1) }).safeParse(parseJson(response.body))
      : null;
  if (!answer?.success) throw new ZettleUnavailable("users/self", response);
  return answer.data.organizationUuid;
}

/** A version 1 UUID (the Pusher API asks for one per subscription): the time now, a random clock and node. */
export function uuidV1(now = Date.now()): string {
  const t = BigInt(now) * 10_000n + 0x01b21dd213814000n;
  const low = (t & 0xffffffffn).toString(16).padStart(8, "0");
  const mid = ((t >> 32n) & 0xffffn).toString(16).padStart(4, "0");
  const high = (((t >> 48n) & 0x0fffn) | 0x1000n).toString(16).padStart(4, "0");
  const random = randomBytes(8);
  const clock = ((random.readUInt16BE(0) & 0x3fff) | 0x8000).toString(16).padStart(4, "0");
  random[2] = random[2]! | 0x01; // a random node has its multicast bit set (RFC 4122 §4.5)
  return `${low}-${mid}-${high}-${clock}-${random.subarray(2).toString("hex")}`;
}

/** Subscribes the destination to PurchaseCreated; Zettle's answer carries the key it will sign every event with. */
export async function createZettleSubscription(
  config: ZettleConfig,
  key: ZettleKey,
  input: { uuid: string; destination: string; contactEmail: string },
): Promise<{ signingKey: string }> {
  const response = await call(config, key, `${config.pusherUrl}/organizations/self/subscriptions`, "POST", {
    uuid: input.uuid,
    transportName: "WEBHOOK",
    eventNames: ["PurchaseCreated"],
    destination: input.destination,
    contactEmail: input.contactEmail,
  });
  const answer =
    response.status === 200 || response.status === 201
      ? z.object({ signingKey: z.string().min(16) }).safeParse(parseJson(response.body))
      : null;
  if (!answer?.success) throw new ZettleUnavailable("subscription", response);
  return answer.data;
}

/** Best effort: a subscription already gone is fine. */
export async function deleteZettleSubscription(config: ZettleConfig, key: ZettleKey, uuid: string) {
  const response = await call(
    config,
    key,
    `${config.pusherUrl}/organizations/self/subscriptions/${encodeURIComponent(uuid)}`,
    "DELETE",
  );
  if (response.status >= 300 && response.status !== 404) throw new ZettleUnavailable("unsubscribe", response);
}

/** What the connector reads of a purchase (the Purchase API's v2 shape; other attributes are ignored). */
const purchaseSchema = z.object({
  purchaseUUID1: z.string().min(1),
  purchaseNumber: z.number().int().optional(),
  amount: z.number().int(),
  currency: z.string().optional(),
  refund: z.boolean().optional().default(false),
  refundsPurchaseUUID1: z.string().nullish(),
  products: z
    .array(z.object({ name: z.string().nullish(), comment: z.string().nullish() }).loose())
    .optional()
    .default([]),
});
export type ZettlePurchase = z.output<typeof purchaseSchema>;

/** A purchase (sale or refund) by its UUID; null when Zettle does not know it. */
export async function zettlePurchase(
  config: ZettleConfig,
  key: ZettleKey,
  uuid: string,
): Promise<ZettlePurchase | null> {
  const response = await call(config, key, `${config.purchaseUrl}/purchase/v2/${encodeURIComponent(uuid)}`, "GET");
  if (response.status === 404) return null;
  const answer = response.status === 200 ? purchaseSchema.safeParse(parseJson(response.body)) : null;
  if (!answer?.success) throw new ZettleUnavailable("purchase", response);
  return answer.data;
}

const purchaseListSchema = z.object({
  purchases: z.array(z.object({ purchaseUUID1: z.string().min(1) }).loose()),
  lastPurchaseHash: z.string().nullish(),
});

/** Pages of the purchase list read at most per call (1,000 purchases each: a busy till's day fits in a few). */
const LIST_PAGES_MAX = 10;
const LIST_PAGE_SIZE = 1000;

/** UTC to the minute, as the Purchase API's startDate and endDate take it (« 2026-11-27T22:00 »). */
const zettleMinute = (at: Date) => at.toISOString().slice(0, 16);

/**
 * The UUIDs of the purchases (sales and refunds) made from `start` (inclusive) to `end` (exclusive), oldest first:
 * `GET /purchases/v2`, page after page by `lastPurchaseHash`.
 */
export async function zettlePurchaseIds(config: ZettleConfig, key: ZettleKey, start: Date, end: Date) {
  const ids: string[] = [];
  let hash: string | null | undefined;
  for (let page = 0; page < LIST_PAGES_MAX; page++) {
    const query = new URLSearchParams({
      startDate: zettleMinute(start),
      endDate: zettleMinute(end),
      limit: String(LIST_PAGE_SIZE),
      descending: "false",
      ...(hash ? { lastPurchaseHash: hash } : {}),
    });
    const response = await call(config, key, `${config.purchaseUrl}/purchases/v2?${query}`, "GET");
    const answer = response.status === 200 ? purchaseListSchema.safeParse(parseJson(response.body)) : null;
    if (!answer?.success) throw new ZettleUnavailable("purchases", response);
    ids.push(...answer.data.purchases.map((p) => p.purchaseUUID1));
    hash = answer.data.lastPurchaseHash;
    if (answer.data.purchases.length < LIST_PAGE_SIZE || !hash) break;
  }
  return ids;
}

/** The signature of an event pushed by the Pusher API: over "<timestamp>.<payload>" as they came. */
export function zettleSignatureOk(signingKey: string, timestamp: string, payload: string, header: string): boolean {
  const expected = createHmac("sha256", signingKey).update(`${timestamp}.${payload}`).digest("hex");
  return safeEqual(expected, header.trim().toLowerCase());
}
