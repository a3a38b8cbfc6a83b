import { createHash, createPrivateKey, type KeyObject } from "node:crypto";
import { SignJWT } from "jose";
import type { PassContent } from "../../../domain/wallet/pass-content.ts";
import { type OutboundPolicy, type OutboundResponse, outboundRequest } from "../../lib/outbound.ts";
import type { GoogleConfig } from "./wallet-config.ts";

/**
 * Google Wallet (issue 26 item 3, ADR 0045): one loyalty class per shop, one loyalty object per card, both carried
 * by the « Ajouter à Google Wallet » link — a JWT signed RS256 with the operator's service-account key, `origins` set
 * to this instance — so Google makes them when the shopper saves the card. Later changes PATCH the object through
 * the Wallet API, authorised by an OAuth token the same key obtains (JWT bearer grant, RFC 7523).
 * https://developers.google.com/wallet/retail/loyalty-cards
 */

const SCOPE = "https://www.googleapis.com/auth/wallet_object.issuer";
const SAVE_URL = "https://pay.google.com/gp/v/save/";
const TIMEOUT_MS = 15_000;

const keys = new WeakMap<GoogleConfig, KeyObject>();
const keyOf = (config: GoogleConfig) => {
  let key = keys.get(config);
  if (!key) {
    key = createPrivateKey(config.privateKey);
    keys.set(config, key);
  }
  return key;
};

/** Ids are `<issuer>.<suffix>`; a suffix takes letters, digits, `.`, `_` and `-`. */
const safe = (id: string) => id.replace(/[^A-Za-z0-9._-]/g, "_");
const googleClassId = (config: GoogleConfig, shopId: string) => `${config.issuerId}.shop-${safe(shopId)}`;
const googleObjectId = (config: GoogleConfig, cardId: string) => `${config.issuerId}.card-${safe(cardId)}`;

export type PassRef = { cardId: string; shopId: string; logoUrl: string };

function loyaltyClass(config: GoogleConfig, pass: PassRef, content: PassContent) {
  return {
    id: googleClassId(config, pass.shopId),
    issuerName: content.shopName,
    programName: content.description,
    programLogo: {
      sourceUri: { uri: pass.logoUrl },
      contentDescription: { defaultValue: { language: "fr", value: content.shopName } },
    },
    hexBackgroundColor: content.colors.background,
    countryCode: "FR",
    reviewStatus: "UNDER_REVIEW",
  };
}

/** What a PATCH sends: everything the card shows, and its state (expired once the shop closed or the account went). */
function objectFields(content: PassContent) {
  return {
    state: content.voided ? "EXPIRED" : "ACTIVE",
    loyaltyPoints: { label: content.balance.label, balance: { string: content.balance.value } },
    ...(content.barcode
      ? {
          accountName: "Ma carte client",
          accountId: content.barcode.altText,
          barcode: { type: "QR_CODE", value: content.barcode.message, alternateText: content.barcode.altText },
        }
      : {}),
    textModulesData: [content.rewards, content.place, ...content.back]
      .filter((f) => f !== null)
      .map((f) => ({ id: f.key, header: f.label, body: f.value })),
    ...(content.location
      ? { locations: [{ latitude: content.location.latitude, longitude: content.location.longitude }] }
      : {}),
  };
}

function loyaltyObject(config: GoogleConfig, pass: PassRef, content: PassContent) {
  return {
    id: googleObjectId(config, pass.cardId),
    classId: googleClassId(config, pass.shopId),
    ...objectFields(content),
  };
}

/** The « Ajouter à Google Wallet » link: the class and the object in a signed JWT (https://pay.google.com/gp/v/save/…). */
export async function googleSaveUrl(config: GoogleConfig, pass: PassRef, content: PassContent): Promise<string> {
  const jwt = await new SignJWT({
    typ: "savetowallet",
    origins: config.origins,
    payload: {
      loyaltyClasses: [loyaltyClass(config, pass, content)],
      loyaltyObjects: [loyaltyObject(config, pass, content)],
    },
  })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(config.clientEmail)
    .setAudience("google")
    .setIssuedAt()
    .sign(keyOf(config));
  return `${SAVE_URL}${jwt}`;
}

type Token = { value: string; renewAt: number };
const tokens = new WeakMap<GoogleConfig, Token>();

async function accessToken(config: GoogleConfig, policy: OutboundPolicy): Promise<string> {
  const known = tokens.get(config);
  if (known && known.renewAt > Date.now()) return known.value;
  const assertion = await new SignJWT({ scope: SCOPE })
    .setProtectedHeader({ alg: "RS256", typ: "JWT" })
    .setIssuer(config.clientEmail)
    .setAudience(config.tokenUrl)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(keyOf(config));
  const response = await outboundRequest(config.tokenUrl, policy, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }).toString(),
    timeoutMs: TIMEOUT_MS,
  });
  if (response.status !== 200) throw new Error(`google token: HTTP ${response.status} ${response.body.slice(0, 200)}`);
  const answer = JSON.parse(response.body) as { access_token?: string; expires_in?: number };
  if (!answer.access_token) throw new Error("google token: no access_token");
  const lifetime = Math.max(60, answer.expires_in ?? 3600);
  tokens.set(config, { value: answer.access_token, renewAt: Date.now() + (lifetime - 60) * 1000 });
  return answer.access_token;
}

type GooglePatchOutcome =
  | { kind: "updated" }
  /** The shopper has not saved the card (yet): nothing to update. */
  | { kind: "absent" }
  /** Google's quota, or a passing failure: try again after this long. */
  | { kind: "later"; afterMs: number; reason: string }
  | { kind: "refused"; status: number; reason: string };

function retryAfterMs(response: OutboundResponse): number {
  const header = response.headers["retry-after"];
  const seconds = typeof header === "string" && /^\d+$/.test(header) ? Number(header) : 60;
  return Math.min(Math.max(seconds, 1), 3600) * 1000;
}

/** One PATCH of the Wallet API, with a new token once if Google no longer takes the one it gave. */
async function patchGoogle(config: GoogleConfig, url: string, body: string): Promise<GooglePatchOutcome> {
  const { policy } = config;
  let response: OutboundResponse | null = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = await accessToken(config, policy);
    response = await outboundRequest(url, policy, {
      method: "PATCH",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
      timeoutMs: TIMEOUT_MS,
    });
    // A token Google no longer takes (revoked, clock skew): once more with a new one.
    if (response.status !== 401) break;
    tokens.delete(config);
  }
  const status = response!.status;
  if (status >= 200 && status < 300) return { kind: "updated" };
  if (status === 404) return { kind: "absent" };
  if (status === 429 || status >= 500) {
    return {
      kind: "later",
      afterMs: retryAfterMs(response!),
      reason: `HTTP ${status} ${response!.body.slice(0, 200)}`,
    };
  }
  return { kind: "refused", status, reason: response!.body.slice(0, 200) };
}

/**
 * PATCHes a card's Google object with what the pass now shows (or its expiry). `notify`: Google tells the phone
 * (notifyPreference), which it allows 3 times a pass a day — the caller counts.
 */
export function patchGoogleObject(
  config: GoogleConfig,
  cardId: string,
  content: PassContent,
  notify: boolean,
): Promise<GooglePatchOutcome> {
  const url = `${config.apiUrl}/walletobjects/v1/loyaltyObject/${encodeURIComponent(googleObjectId(config, cardId))}`;
  const body = JSON.stringify({
    ...objectFields(content),
    ...(notify ? { notifyPreference: "NOTIFY_ON_UPDATE" } : {}),
  });
  return patchGoogle(config, url, body);
}

/** The shop's class as the save link and a PATCH send it, and a hash of it (what changes when the shop does). */
export function googleClassOf(config: GoogleConfig, pass: PassRef, content: PassContent) {
  const fields = loyaltyClass(config, pass, content);
  return { fields, hash: createHash("sha256").update(JSON.stringify(fields)).digest("base64url") };
}

/** PATCHes the shop's class (its name, programme, logo, colour): after a change the card's object does not carry. */
export function patchGoogleClass(
  config: GoogleConfig,
  shopId: string,
  fields: ReturnType<typeof loyaltyClass>,
): Promise<GooglePatchOutcome> {
  const url = `${config.apiUrl}/walletobjects/v1/loyaltyClass/${encodeURIComponent(googleClassId(config, shopId))}`;
  return patchGoogle(config, url, JSON.stringify(fields));
}
