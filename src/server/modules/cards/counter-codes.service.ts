import { createHmac, createSecretKey } from "node:crypto";
import { isNull, type SQL } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { CODE_STEP_SECONDS, fromBase64url, MAC_BYTES, timeStep } from "../../../domain/loyalty/scan-code.ts";
import { shortCodeOf } from "../../../domain/loyalty/short-code.ts";
import type { Db } from "../../db/client.ts";
import { shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { codeShopWhere, counterFace } from "./counter.service.ts";

/**
 * The counter's codes beyond the QR of the moment (issue 12): the codes of the next hours, fetched ahead by
 * /reader so that it keeps showing a valid code with no network, and the short code a shopper types on
 * /scanner when the camera fails. Only tokens leave the server, never the shop's key: a token is good for its
 * own 60 s and nothing else.
 */

/** How far ahead /reader holds codes: a counter that loses its network keeps working for that long. */
const CODES_AHEAD_HOURS = 4;
const STEPS_AHEAD = (CODES_AHEAD_HOURS * 3600) / CODE_STEP_SECONDS;

/**
 * The domain's rotatingToken for `count` steps from `firstStep`, computed with node:crypto: synchronous, about ten
 * times cheaper a token than a Web Crypto call, which matters here — /reader's codes ahead are 480 tokens a request,
 * a short-code index one a shop. The same tokens (counter-codes.test.ts holds them equal).
 */
export function rotatingTokens(codeSecret: string, scanUid: string, firstStep: number, count: number): string[] {
  const key = createSecretKey(fromBase64url(codeSecret));
  return Array.from({ length: count }, (_, i) => {
    const step = firstStep + i;
    const mac = createHmac("sha256", key).update(`r:${scanUid}:${step}`).digest().subarray(0, MAC_BYTES);
    return `${step.toString(36)}.${mac.toString("base64url")}`;
  });
}

/** GET …/reader/ahead: the tokens of the current step and the next 4 hours, in step order, with the shop's face. */
export const getCodesAhead = (db: Db, access: ShopAccess, appUrl: string, nowMs = Date.now()) =>
  codesAheadWhere(db, shopScope(access), appUrl, nowMs);

/** The codes ahead of the shop a scope yields (/reader's, a counter tablet's). */
export async function codesAheadWhere(db: Db, scope: SQL, appUrl: string, nowMs = Date.now()) {
  const shop = await codeShopWhere(db, scope);
  const firstStep = timeStep(nowMs);
  const tokens = rotatingTokens(shop.codeSecret, shop.scanUid, firstStep, STEPS_AHEAD);
  return {
    shop: counterFace(shop),
    appUrl,
    scanUid: shop.scanUid,
    firstStep,
    tokens,
    serverTime: new Date(nowMs).toISOString(),
  };
}

type Found = { scanUid: string; token: string };
/** Per database and step: short code → the shops whose token of that step has it (almost always one). */
const indexes = new WeakMap<Db, Map<number, Promise<Map<string, Found[]>>>>();

async function buildIndex(db: Db, step: number): Promise<Map<string, Found[]>> {
  const rows = await db
    .select({ scanUid: shops.scanUid, codeSecret: shops.codeSecret })
    .from(shops)
    // Suspended shops too: their typed code leads to the same scan as their QR code, refused « Boutique suspendue »
    // in the same words (issue 25 row 2), not « Code inconnu ».
    .where(isNull(shops.deletedAt));
  const index = new Map<string, Found[]>();
  for (const row of rows) {
    const [token = ""] = rotatingTokens(row.codeSecret, row.scanUid, step, 1);
    const code = shortCodeOf(token);
    if (code) index.set(code, [...(index.get(code) ?? []), { scanUid: row.scanUid, token }]);
  }
  return index;
}

/**
 * The index of a step, built once per process for that step (a new shop or a renewed key shows from the next
 * step on; the scan itself always checks the token against the shop's key of the moment).
 */
function indexOf(db: Db, step: number, current: number): Promise<Map<string, Found[]>> {
  let byStep = indexes.get(db);
  if (!byStep) {
    byStep = new Map();
    indexes.set(db, byStep);
  }
  for (const s of byStep.keys()) if (s < current - 1) byStep.delete(s);
  let index = byStep.get(step);
  if (!index) {
    index = buildIndex(db, step);
    index.catch(() => byStep.delete(step));
    byStep.set(step, index);
  }
  return index;
}

/**
 * A short code typed on /scanner → the counter code it stands for (the same as scanning the QR). The current
 * step first, then the previous one (a code stays good 30 s after it changes, like the QR).
 */
export async function resolveShortCode(db: Db, code: string, nowMs = Date.now()): Promise<Found> {
  const current = timeStep(nowMs);
  for (const step of [current, current - 1]) {
    const found = (await indexOf(db, step, current)).get(code) ?? [];
    if (found.length === 1) return found[0]!;
    if (found.length > 1) {
      throw new AppError("CONFLICT", {
        message: "short code shared by several shops in this step",
        userMessage:
          "Ce code correspond à plusieurs boutiques en ce moment : tapez le prochain code affiché (dans 30 secondes au plus).",
      });
    }
  }
  throw new AppError("NOT_FOUND", {
    message: "unknown or expired short code",
    userMessage: "Code inconnu ou expiré : tapez le code affiché en ce moment sous le QR code du comptoir.",
  });
}
