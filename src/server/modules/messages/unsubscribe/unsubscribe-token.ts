import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The token of a marketing e-mail's unsubscribe address (List-Unsubscribe, RFC 8058):
 * who (the user), from whom (the shop; none for the platform) and which delivery (for
 * the campaign's figures), signed with HMAC-SHA256 under the app's secret. It
 * authorises one thing: withdrawing that person's e-mail consent (the unsubscribe page never grants: ADR 0035).
 * Unguessable (a 128-bit tag), and it never expires: an old e-mail must still unsubscribe.
 */
export type UnsubscribeClaim = { userId: string; shopId: string | null; deliveryId: string | null };

const ID = /^[A-Za-z0-9_-]{1,100}$/;
const TAG_BYTES = 16;

/** What a token is for: an unsubscribe token cannot be used as an open-tracking one, nor the reverse. */
type TokenPurpose = "unsubscribe" | "open";

const tag = (secret: string, payload: string, purpose: TokenPurpose) =>
  createHmac("sha256", secret).update(`${purpose}:${payload}`).digest().subarray(0, TAG_BYTES);

export function signUnsubscribeToken(
  secret: string,
  claim: UnsubscribeClaim,
  purpose: TokenPurpose = "unsubscribe",
): string {
  const payload = [claim.userId, claim.shopId ?? "", claim.deliveryId ?? ""].join(".");
  return `${Buffer.from(payload).toString("base64url")}.${tag(secret, payload, purpose).toString("base64url")}`;
}

/** The claim of a genuine token; null for anything else (tampered, truncated, malformed). */
export function verifyUnsubscribeToken(
  secret: string,
  token: string,
  purpose: TokenPurpose = "unsubscribe",
): UnsubscribeClaim | null {
  if (token.length > 600) return null;
  const [encoded, mac, extra] = token.split(".");
  if (!encoded || !mac || extra !== undefined) return null;
  const payload = Buffer.from(encoded, "base64url").toString("utf8");
  const given = Buffer.from(mac, "base64url");
  const expected = tag(secret, payload, purpose);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [userId, shopId, deliveryId, more] = payload.split(".");
  if (!userId || !ID.test(userId) || more !== undefined) return null;
  if (shopId && !ID.test(shopId)) return null;
  if (deliveryId && !ID.test(deliveryId)) return null;
  return { userId, shopId: shopId || null, deliveryId: deliveryId || null };
}

export const unsubscribeUrl = (appUrl: string, token: string) =>
  `${appUrl.replace(/\/$/, "")}/api/email/unsubscribe/${token}`;
