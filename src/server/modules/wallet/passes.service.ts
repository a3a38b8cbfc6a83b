import { createHash, randomBytes } from "node:crypto";
import { and, asc, eq, gt, inArray, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { formatPersonalCode, PERSONAL_QR_PREFIX } from "../../../domain/loyalty/personal-code.ts";
import { prepaidAmountLabel, prepaidLastDay } from "../../../domain/loyalty/prepaid.ts";
import { type PassContent, passContent } from "../../../domain/wallet/pass-content.ts";
import type { Db } from "../../db/client.ts";
import { cards, personalCodes, prepaidHoldings, shops, walletPasses } from "../../db/schema/index.ts";
import { designOf, imageUrl } from "../../lib/shop-dto.ts";
import { getMyPersonalCode } from "../cards/personal-code.service.ts";
import { holdingColumns } from "../prepaid/holdings.service.ts";
import { rewardsGlance } from "../rewards/rewards.service.ts";

/**
 * A card's pass, whatever the wallet: where its content comes from (the card, its shop, the shop's rewards, the
 * holder's personal code) and the hash that says when it changed (ADR 0045).
 */

export type PassView = {
  cardId: string;
  userId: string | null;
  shopId: string;
  shopSlug: string;
  /** The shop's logo as the web app serves it (/api/shops/…/logo?v=…), or null. */
  logoPath: string | null;
  content: PassContent;
  /** Hash of the content and the shop's logo: a change of either is a new pass. */
  hash: string;
};

const passNotFound = () => new AppError("NOT_FOUND", { userMessage: "Carte introuvable." });

/** The current content of these cards' passes. Cards that do not exist are missing from the map. */
export async function readPassViews(
  db: Db,
  cardIds: readonly string[],
  now = new Date(),
): Promise<Map<string, PassView>> {
  const out = new Map<string, PassView>();
  if (cardIds.length === 0) return out;
  const rows = await db
    .select({
      cardId: cards.id,
      userId: cards.userId,
      balance: cards.balance,
      shopId: shops.id,
      shopSlug: shops.slug,
      name: shops.name,
      address: shops.address,
      postalCode: shops.postalCode,
      city: shops.city,
      lat: shops.lat,
      lng: shops.lng,
      design: shops.cardDesign,
      mode: shops.cardMode,
      stampsGoal: shops.stampsGoal,
      deletedAt: shops.deletedAt,
      logoHash: sql<string>`md5(coalesce(${shops.logo}, '') || coalesce(${shops.walletLogo}, ''))`,
      hasLogo: sql<boolean>`${shops.logo} is not null`,
      shopUpdatedAt: shops.updatedAt,
      code: personalCodes.code,
    })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .leftJoin(personalCodes, eq(personalCodes.userId, cards.userId))
    .where(inArray(cards.id, [...cardIds]));
  const [glance, prepaid] = await Promise.all([
    rewardsGlance(
      db,
      rows.map((r) => ({ id: r.cardId, shopId: r.shopId, balance: r.balance })),
      now,
    ),
    prepaidForPasses(db, rows, now),
  ]);
  for (const r of rows) {
    const content = passContent({
      shop: {
        name: r.name,
        address: r.address,
        postalCode: r.postalCode,
        city: r.city,
        lat: r.lat,
        lng: r.lng,
        design: designOf(r.design),
        isClosed: r.deletedAt !== null,
      },
      mode: r.mode,
      stampsGoal: r.stampsGoal,
      balance: r.balance,
      rewards: glance.get(r.cardId) ?? { reachable: 0, next: null },
      personalCode: r.code ? { qr: `${PERSONAL_QR_PREFIX}${r.code}`, display: formatPersonalCode(r.code) } : null,
      prepaid: prepaid.get(`${r.userId}:${r.shopId}`) ?? [],
    });
    const hash = createHash("sha256").update(JSON.stringify(content)).update(r.logoHash).digest("base64url");
    out.set(r.cardId, {
      cardId: r.cardId,
      userId: r.userId,
      shopId: r.shopId,
      shopSlug: r.shopSlug,
      logoPath: imageUrl(r.shopSlug, "logo", Boolean(r.hasLogo), r.shopUpdatedAt),
      content,
      hash,
    });
  }
  return out;
}

/**
 * The bundles and gift cards these cards' holders have at these shops with something left and still valid, by
 * « userId:shopId », soonest to end first (one read for a whole sweep).
 */
async function prepaidForPasses(db: Db, rows: { userId: string | null; shopId: string }[], now: Date) {
  const out = new Map<string, { title: string; balance: string; lastDay: string }[]>();
  const userIds = [...new Set(rows.flatMap((r) => (r.userId ? [r.userId] : [])))];
  if (userIds.length === 0) return out;
  const holdings = await db
    .select({ ...holdingColumns, userId: prepaidHoldings.userId, shopId: prepaidHoldings.shopId })
    .from(prepaidHoldings)
    .innerJoin(shops, eq(shops.id, prepaidHoldings.shopId))
    .where(
      and(
        inArray(prepaidHoldings.userId, userIds),
        inArray(prepaidHoldings.shopId, [...new Set(rows.map((r) => r.shopId))]),
        gt(prepaidHoldings.balance, 0),
        gt(prepaidHoldings.expiresAt, now),
      ),
    )
    .orderBy(asc(prepaidHoldings.expiresAt), asc(prepaidHoldings.createdAt));
  for (const h of holdings) {
    const key = `${h.userId}:${h.shopId}`;
    const list = out.get(key) ?? [];
    list.push({
      title: h.title,
      balance: prepaidAmountLabel(h.kind, h.balance),
      lastDay: prepaidLastDay(h.expiresAt, h.tz),
    });
    out.set(key, list);
  }
  return out;
}

/**
 * The shop's logo as PNG bytes (Wallet takes PNG only): the PNG the owner's browser drew for the wallet, else the
 * logo itself when it is a PNG; none, and the pass shows the shop's name.
 */
export async function shopLogoPng(db: Db, shopId: string): Promise<Buffer | null> {
  const [row] = await db
    .select({ walletLogo: shops.walletLogo, logo: shops.logo })
    .from(shops)
    .where(eq(shops.id, shopId))
    .limit(1);
  for (const url of [row?.walletLogo, row?.logo]) {
    const match = url ? /^data:image\/png;base64,(.*)$/.exec(url) : null;
    if (match?.[1]) return Buffer.from(match[1], "base64");
  }
  return null;
}

export type PassRow = typeof walletPasses.$inferSelect;

/**
 * The shopper's own card's pass, made on first ask (a random Apple authentication token), with its view. Another
 * person's card, or a card of a deleted shop, is "not found". The personal code is made now if it was not yet, so
 * the pass always carries one.
 */
export async function issuePass(db: Db, userId: string, cardId: string): Promise<{ row: PassRow; view: PassView }> {
  const [card] = await db
    .select({ id: cards.id })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .where(and(eq(cards.id, cardId), eq(cards.userId, userId), sql`${shops.deletedAt} is null`))
    .limit(1);
  if (!card) throw passNotFound();
  await getMyPersonalCode(db, userId);
  const view = (await readPassViews(db, [cardId])).get(cardId);
  if (!view) throw passNotFound();
  await db
    .insert(walletPasses)
    // The device that adds this pass has this content: nothing to push until it changes.
    .values({
      cardId,
      userId,
      authToken: randomBytes(24).toString("base64url"),
      contentHash: view.hash,
      applePushedHash: view.hash,
    })
    .onConflictDoNothing();
  const row = await recordContent(db, view);
  if (!row) throw passNotFound();
  return { row, view };
}

/**
 * Records what the pass now shows: when its hash differs from the one kept, `updatedAt` moves to now (the devices'
 * passesUpdatedSince and Last-Modified read it). Returns the row as it stands, or undefined when there is none.
 */
export async function recordContent(db: Db, view: PassView): Promise<PassRow | undefined> {
  const [row] = await db
    .update(walletPasses)
    .set({
      contentHash: view.hash,
      checkedAt: sql`now()`,
      updatedAt: sql`case when ${walletPasses.contentHash} = ${view.hash} then ${walletPasses.updatedAt} else now() end`,
    })
    .where(eq(walletPasses.cardId, view.cardId))
    .returning();
  return row;
}

/** The Google save link carries this content: the object Google makes from it is up to date. */
export async function recordGoogleLink(db: Db, view: PassView): Promise<void> {
  await db
    .update(walletPasses)
    .set({ googleIssuedAt: sql`coalesce(${walletPasses.googleIssuedAt}, now())`, googleSyncedHash: view.hash })
    .where(eq(walletPasses.cardId, view.cardId));
}
