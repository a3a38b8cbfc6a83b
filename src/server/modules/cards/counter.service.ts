import { and, eq, type SQL, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { plural } from "../../../domain/format.ts";
import { importCodeKey, rotatingToken, scanUrl, stepEndsAt, timeStep } from "../../../domain/loyalty/scan-code.ts";
import type { creditVisitSchema } from "../../../domain/schemas/cards.ts";
import type { Database, Db } from "../../db/client.ts";
import { cards, profiles, shops, user } from "../../db/schema/index.ts";
import { performScan } from "./scan.service.ts";
import { findByPersonalCode } from "./personal-code.service.ts";
import { consumeThrottles, refundThrottles } from "../../lib/throttle.ts";
import { designOf, imageUrl } from "../../lib/shop-dto.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/** The counter: the rotating code, visits typed by staff (corrections: adjustments.service.ts). */

/** The shop as the counter screen shows it above its code. */
export function counterFace(shop: Awaited<ReturnType<typeof codeShopWhere>>) {
  return {
    name: shop.name,
    status: shop.status,
    logoUrl: imageUrl(shop.slug, "logo", shop.hasLogo, shop.updatedAt),
    design: designOf(shop.cardDesign),
  };
}

/** The shop with its code key, as the access reaches it. */
export const scopedCodeShop = (db: Db, access: ShopAccess) => codeShopWhere(db, shopScope(access));

/**
 * The shop with its code key, by a scope that yields its id (a member's `shopScope`, a counter tablet's
 * `tabletScope`): nothing when the scope yields nothing.
 */
export async function codeShopWhere(db: Db, scope: SQL) {
  const [shop] = await db
    .select({
      id: shops.id,
      slug: shops.slug,
      name: shops.name,
      status: shops.status,
      scanUid: shops.scanUid,
      codeSecret: shops.codeSecret,
      cardDesign: shops.cardDesign,
      hasLogo: sql<boolean>`${shops.logo} is not null`,
      updatedAt: shops.updatedAt,
      cardMode: shops.cardMode,
      stampsGoal: shops.stampsGoal,
      pointsPerVisit: shops.pointsPerVisit,
      cooldownMinutes: shops.cooldownMinutes,
      dailyCap: shops.dailyCap,
      allowStaticPoster: shops.allowStaticPoster,
      earnBy: shops.earnBy,
      pointsPerEuro: shops.pointsPerEuro,
      amountRounding: shops.amountRounding,
    })
    .from(shops)
    .where(eq(shops.id, scope))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

/**
 * /reader: the code of this 30 s step, as the URL a phone camera opens (the screen draws its QR code itself). Ask
 * again at `expiresAt` (the previous code stays valid 30 s more).
 */
export const getReaderCode = (db: Db, access: ShopAccess, appUrl: string, nowMs = Date.now()) =>
  readerCodeWhere(db, shopScope(access), appUrl, nowMs);

/** The code of this step of the shop a scope yields (/reader's, a counter tablet's). */
export async function readerCodeWhere(db: Db, scope: SQL, appUrl: string, nowMs = Date.now()) {
  const shop = await codeShopWhere(db, scope);
  const step = timeStep(nowMs);
  const token = await rotatingToken(await importCodeKey(shop.codeSecret), shop.scanUid, step);
  const url = scanUrl(appUrl, { scanUid: shop.scanUid, token, poster: null });
  return {
    shop: counterFace(shop),
    url,
    step,
    expiresAt: new Date(stepEndsAt(step)).toISOString(),
    serverTime: new Date(nowMs).toISOString(),
  };
}

/**
 * A customer of THIS shop by e-mail (the shop already has them in its list). Anyone else (no account, or an
 * account with no card here) gets the same neutral answer: the e-mail field is no directory of people.
 */
async function findShopCustomerByEmail(db: Db, shopId: string, email: string) {
  const [row] = await db
    .select({ id: user.id, firstName: profiles.firstName, lastName: profiles.lastName })
    .from(cards)
    .innerJoin(user, eq(user.id, cards.userId))
    .leftJoin(profiles, eq(profiles.id, user.id))
    .where(and(eq(cards.shopId, shopId), eq(user.email, email)))
    .limit(1);
  return row;
}

const AMOUNT_REQUIRED_MESSAGE = "Saisissez le montant des achats : la carte donne des points selon le montant.";

/** The one answer for an e-mail that is not a customer of this shop, whatever the reason. */
const NOT_A_CUSTOMER_MESSAGE =
  "Aucun client de votre boutique avec cette adresse. Pour un nouveau client, scannez ou saisissez son code client (dans l'app : Profil › Ma carte client).";

/** Misses allowed on personal codes per shop and per address, per window: guessing a code stays out of reach. */
const PERSONAL_CODE_MISSES = { windowSeconds: 600, max: 20 };

export async function throttledPersonalCodeLookup(db: Db, code: string, keys: string[]) {
  const blocked = await consumeThrottles(db, keys, PERSONAL_CODE_MISSES.windowSeconds, PERSONAL_CODE_MISSES.max);
  if (!blocked.allowed) {
    const minutes = Math.ceil((blocked.retryAfter ?? PERSONAL_CODE_MISSES.windowSeconds) / 60);
    throw new AppError("RATE_LIMITED", {
      message: "personal code lookups throttled",
      userMessage: `Trop de codes client inconnus saisis. Réessayez dans ${plural(minutes, "minute", "minutes")}.`,
    });
  }
  const found = await findByPersonalCode(db, code);
  // Only misses count: a busy counter never runs out.
  if (found) await refundThrottles(db, keys);
  return found;
}

/**
 * /manager: credit a visit with no camera; same rules as a scan. By personal code (shown by the customer: their
 * consent, so the card is made if needed) or by e-mail (customers of this shop only). Staff never credit themselves.
 */
export async function creditVisit(
  database: Database,
  access: ShopAccess,
  input: z.output<typeof creditVisitSchema>,
  clientIp: string,
) {
  const db = database.db;
  const shop = await scopedCodeShop(db, access);
  let customer: { id: string; firstName: string | null; lastName: string | null } | undefined;
  if (input.code) {
    customer = await throttledPersonalCodeLookup(db, input.code, [
      `personal-code:shop:${shop.id}`,
      `personal-code:ip:${clientIp}`,
    ]);
    if (!customer) {
      throw new AppError("NOT_FOUND", {
        message: "unknown personal code",
        userMessage:
          "Code client inconnu : vérifiez-le, ou demandez au client d'afficher « Ma carte client » dans l'app.",
      });
    }
  } else if (input.email) {
    customer = await findShopCustomerByEmail(db, shop.id, input.email);
    if (!customer)
      throw new AppError("NOT_FOUND", { message: "not a customer of this shop", userMessage: NOT_A_CUSTOMER_MESSAGE });
  }
  if (!customer) throw new AppError("VALIDATION", { userMessage: "Saisissez le code client." });
  if (shop.cardMode === "points" && shop.earnBy === "amount" && input.amountCents === null) {
    throw new AppError("VALIDATION", {
      message: "amount required",
      userMessage: AMOUNT_REQUIRED_MESSAGE,
      fields: { amountCents: AMOUNT_REQUIRED_MESSAGE },
    });
  }
  if (customer.id === access.userId) {
    throw new AppError("FORBIDDEN", {
      message: "self credit",
      userMessage: "Vous ne pouvez pas créditer votre propre carte.",
    });
  }
  const { answer, replayed, followUps } = await performScan(
    database,
    { userId: customer.id, actorId: access.userId },
    {
      scanUid: shop.scanUid,
      token: null,
      poster: null,
      deviceId: null,
      idempotencyKey: input.idempotencyKey,
      amountCents: input.amountCents,
    },
    "staff",
  );
  return {
    answer,
    replayed,
    followUps,
    customer: { firstName: customer.firstName, lastName: customer.lastName },
  };
}

/** /manager: a card of this shop by its holder's e-mail (to correct it). */
export async function lookupCustomer(db: Db, access: ShopAccess, email: string) {
  const result = await db.execute<{
    card_id: string;
    first_name: string | null;
    last_name: string | null;
    balance: number;
    visits: number;
    last_scan_at: Date | string | null;
  }>(sql`
    select c.id as card_id, p.first_name, p.last_name, c.balance, c.visits, c.last_scan_at
    from cards c join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
    where c.shop_id = ${shopScope(access)} and u.email = ${email}`);
  const r = result.rows[0];
  if (!r) throw new AppError("NOT_FOUND", { userMessage: "Ce client n'a pas encore de carte dans votre boutique." });
  return {
    cardId: r.card_id,
    firstName: r.first_name,
    lastName: r.last_name,
    balance: r.balance,
    visits: r.visits,
    lastVisitAt: r.last_scan_at === null ? null : new Date(r.last_scan_at).toISOString(),
  };
}
