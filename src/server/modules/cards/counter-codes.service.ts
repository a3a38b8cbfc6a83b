import { eq, isNull, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { CODE_STEP_SECONDS, importCodeKey, rotatingToken, timeStep } from "../../../domain/loyalty/scan-code.ts";
import { shortCodeOf } from "../../../domain/loyalty/short-code.ts";
import type { Db } from "../../db/client.ts";
import { shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { designOf, imageUrl } from "../../lib/shop-dto.ts";

/**
 * The counter's codes beyond the QR of the moment (issue 12): the codes of the next hours, fetched ahead by
 * /reader so that it keeps showing a valid code with no network, and the short code a shopper types on
 * /scanner when the camera fails. Only tokens leave the server, never the shop's key: a token is good for its
 * own 60 s and nothing else.
 */

/** How far ahead /reader holds codes: a counter that loses its network keeps working for that long. */
export const CODES_AHEAD_HOURS = 4;
const STEPS_AHEAD = (CODES_AHEAD_HOURS * 3600) / CODE_STEP_SECONDS;

/** GET …/reader/ahead: the tokens of the current step and the next 4 hours, in step order, with the shop's face. */
export async function getCodesAhead(db: Db, access: ShopAccess, appUrl: string, nowMs = Date.now()) {
  const [shop] = await db
    .select({
      slug: shops.slug,
      name: shops.name,
      status: shops.status,
      scanUid: shops.scanUid,
      codeSecret: shops.codeSecret,
      cardDesign: shops.cardDesign,
      hasLogo: sql<boolean>`${shops.logo} is not null`,
      updatedAt: shops.updatedAt,
    })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  const key = await importCodeKey(shop.codeSecret);
  const firstStep = timeStep(nowMs);
  const tokens = await Promise.all(
    Array.from({ length: STEPS_AHEAD }, (_, i) => rotatingToken(key, shop.scanUid, firstStep + i)),
  );
  return {
    shop: {
      name: shop.name,
      status: shop.status,
      logoUrl: imageUrl(shop.slug, "logo", shop.hasLogo, shop.updatedAt),
      design: designOf(shop.cardDesign),
    },
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
    const token = await rotatingToken(await importCodeKey(row.codeSecret), row.scanUid, step);
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
