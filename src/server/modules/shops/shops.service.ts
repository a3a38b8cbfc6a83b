import { randomUUID } from "node:crypto";
import { and, asc, avg, count, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { isPeriodOver, multiplierAt } from "../../../domain/loyalty/double-points.ts";
import { closureOn, dayHoursLabelFr, type Closure, WEEKDAYS_FR, type WeeklyHours } from "../../../domain/loyalty/hours.ts";
import { cardProgress } from "../../../domain/loyalty/ledger.ts";
import { checkVisit, DEFAULT_CARD_RULES, } from "../../../domain/loyalty/scan-rules.ts";
import { randomSecret } from "../../../domain/loyalty/scan-code.ts";
import { foldSearch, SEARCH_FOLD_FROM, SEARCH_FOLD_TO, slugify } from "../../../domain/loyalty/shop-text.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { ShopRegistration, shopSearchSchema } from "../../../domain/schemas/shops.ts";
import { DEFAULT_CARD_DESIGN } from "../../../domain/schemas/shops.ts";
import type { z } from "zod";
import { listShopRewardsFor } from "../rewards/rewards.service.ts";
import { periodDto, rulesSummaryFr } from "../cards/card-settings.service.ts";
import { loadPeriods } from "../cards/scan.service.ts";
import { shopPlaceFields } from "./settings.service.ts";
import type { Db } from "../../db/client.ts";
import { cards, member, organization, shopReviews, shops } from "../../db/schema/index.ts";
import { categoryLabelFr, decodeImageDataUrl, designOf, imageUrl, mapUrl, openNow, pgConstraint, pgErrorCode } from "../../lib/shop-dto.ts";

/** Paths under /api/shops that are not shop slugs. */
const RESERVED_SLUGS = new Set(["nearby", "by-scan", "categories", "mine", "new", "admin"]);
/** A person may own this many shops (stops a script from filling the directory). */
export const MAX_OWNED_SHOPS = 5;

type Tx = Pick<Db, "insert" | "select" | "update" | "execute">;

type InsertShopInput = ShopRegistration & {
  ownerId: string;
  slug: string;
  rules?: Partial<typeof DEFAULT_CARD_RULES>;
};

/**
 * The rows of one shop: the better-auth organization, its owner membership and
 * the shop with default card rules, design and a fresh code key. Shared by sign-up
 * and the factories (seed and tests).
 */
export async function insertShopRows(tx: Tx, input: InsertShopInput) {
  const id = randomUUID();
  const now = new Date();
  const rules = { ...DEFAULT_CARD_RULES, ...input.rules };
  await tx.insert(organization).values({ id, name: input.name, slug: input.slug, createdAt: now });
  await tx.insert(member).values({ id: randomUUID(), organizationId: id, userId: input.ownerId, role: "owner", createdAt: now });
  const scanUid = randomSecret(12);
  await tx.insert(shops).values({
    id,
    slug: input.slug,
    scanUid,
    codeSecret: randomSecret(32),
    name: input.name,
    category: input.category,
    ...shopPlaceFields(input),
    siret: input.siret ?? null,
    cardMode: rules.mode,
    stampsGoal: rules.stampsGoal,
    pointsPerVisit: rules.pointsPerVisit,
    cooldownMinutes: rules.cooldownMinutes,
    dailyCap: rules.dailyCap,
    allowStaticPoster: rules.allowStaticPoster,
    cardDesign: DEFAULT_CARD_DESIGN,
  });
  return { id, slug: input.slug, scanUid, name: input.name };
}

/** A free slug for a name: the name's, else with a short suffix. */
async function freeSlug(db: Db, name: string): Promise<string> {
  const base = slugify(name);
  const candidates = [base, ...Array.from({ length: 4 }, () => `${base}-${randomUUID().slice(0, 4)}`)];
  for (const slug of candidates) {
    if (RESERVED_SLUGS.has(slug)) continue;
    const [taken] = await db.select({ id: organization.id }).from(organization).where(eq(organization.slug, slug)).limit(1);
    if (!taken) return slug;
  }
  return `${base}-${randomUUID().slice(0, 8)}`;
}

const tooManyShops = () =>
  new AppError("CONFLICT", {
    message: "too many shops",
    userMessage: `Vous possédez déjà ${MAX_OWNED_SHOPS} boutiques : contactez-nous pour en ajouter d'autres.`,
  });

/**
 * /inscription-boutique: a signed-in person registers a shop and becomes its owner. The cap on owned shops is
 * counted under a lock on the owner (a transaction-level advisory lock): simultaneous registrations queue, so
 * twelve at once still make five shops, on PostgreSQL as on PGlite.
 */
export async function registerShop(db: Db, ownerId: string, input: ShopRegistration) {
  const countOwned = async (tx: Tx) => {
    const [owned] = await tx
      .select({ n: count() })
      .from(member)
      .where(and(eq(member.userId, ownerId), eq(member.role, "owner")));
    return owned?.n ?? 0;
  };
  // A cheap early answer (no slug search) for the common case; the locked count below is the one that holds.
  if ((await countOwned(db)) >= MAX_OWNED_SHOPS) throw tooManyShops();
  for (let attempt = 0; attempt < 3; attempt++) {
    const slug = await freeSlug(db, input.name);
    try {
      const shop = await db.transaction(async (t) => {
        const tx = t as unknown as Tx;
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`shops-owner:${ownerId}`}, 0))`);
        if ((await countOwned(tx)) >= MAX_OWNED_SHOPS) throw tooManyShops();
        return insertShopRows(tx, { ...input, ownerId, slug });
      });
      return { id: shop.id, slug: shop.slug, name: shop.name };
    } catch (error) {
      if (pgErrorCode(error) === "23505" && /slug/.test(pgConstraint(error) ?? "")) continue;
      throw error;
    }
  }
  throw new AppError("CONFLICT", { userMessage: "Ce nom de boutique est déjà pris : essayez une variante." });
}

type SearchInput = z.output<typeof shopSearchSchema>;

const fold = (expr: ReturnType<typeof sql>) => sql`translate(lower(${expr}), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO})`;
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type ShopListRow = {
  id: string;
  slug: string;
  name: string;
  category: string;
  city: string;
  postal_code: string;
  address: string;
  card_mode: "stamps" | "points";
  card_design: typeof DEFAULT_CARD_DESIGN;
  weekly_hours: WeeklyHours;
  closures: Closure[];
  timezone: string;
  has_logo: boolean;
  updated_at: Date | string;
  lat: number | null;
  lng: number | null;
  distance_km: number | null;
};

/**
 * /boutiques and /boutique-a-proximite: active shops by name, city or category
 * (accents ignored); by distance when a position is given (Haversine in SQL),
 * by name otherwise.
 */
export async function searchShops(db: Db, input: SearchInput, options: { defaultRadiusKm?: number } = {}) {
  const lat = input.lat ?? null;
  const lng = input.lng ?? null;
  const radius = lat !== null ? (input.radiusKm ?? options.defaultRadiusKm ?? null) : null;
  const q = input.q ? `%${likeEscape(foldSearch(input.q))}%` : null;
  const city = input.city ? foldSearch(input.city) : null;
  const result = await db.execute<ShopListRow>(sql`
    select * from (
      select s.id, s.slug, s.name, s.category, s.city, s.postal_code, s.address, s.card_mode, s.card_design,
             s.weekly_hours, s.closures, s.timezone, (s.logo is not null) as has_logo, s.updated_at, s.lat, s.lng,
             case when ${lat}::float8 is null or s.lat is null then null
                  else 6371 * 2 * asin(least(1, sqrt(
                    power(sin(radians(s.lat - ${lat}::float8) / 2), 2)
                    + cos(radians(${lat}::float8)) * cos(radians(s.lat)) * power(sin(radians(s.lng - ${lng}::float8) / 2), 2))))
             end as distance_km
      from shops s
      where s.status = 'active'
        and (${q}::text is null or ${fold(sql`s.name || ' ' || s.city || ' ' || s.category || ' ' || s.postal_code`)} like ${q}::text)
        and (${city}::text is null or ${fold(sql`s.city`)} like ${city}::text || '%')
        and (${input.category ?? null}::text is null or s.category = ${input.category ?? null}::text)
    ) found
    where (${radius}::float8 is null or distance_km <= ${radius}::float8)
    order by distance_km asc nulls last, ${fold(sql`name`)} asc, id
    limit ${input.limit + 1} offset ${input.offset}`);
  const now = new Date();
  const rows = result.rows.slice(0, input.limit);
  return {
    shops: rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      category: r.category,
      categoryLabel: categoryLabelFr(r.category),
      address: r.address,
      postalCode: r.postal_code,
      city: r.city,
      mode: r.card_mode,
      design: designOf(r.card_design),
      logoUrl: imageUrl(r.slug, "logo", r.has_logo, new Date(r.updated_at)),
      distanceKm: r.distance_km === null ? null : Math.round(Number(r.distance_km) * 10) / 10,
      hasPosition: r.lat !== null,
      open: openNow(r.weekly_hours, r.closures, r.timezone, now),
    })),
    hasMore: result.rows.length > input.limit,
    sortedBy: lat !== null ? ("distance" as const) : ("name" as const),
  };
}

/** /shop/{slug}: what a shopper sees; their card and review when signed in. */
export async function getShopPage(db: Db, slug: string, viewerId: string | null, now = new Date()) {
  // A shop deleted by its owner (shop-closure.service.ts) is gone from the public side.
  // The images (up to 1 MB of data URLs) and the secrets stay in the table: the page links the images by URL.
  const { logo, cover, walletLogo: _w, receiptSecret: _r, codeSecret: _c, ...columns } = getTableColumns(shops);
  const [shop] = await db
    .select({ ...columns, hasLogo: sql<boolean>`${logo} is not null`, hasCover: sql<boolean>`${cover} is not null` })
    .from(shops)
    .where(and(eq(shops.slug, slug), isNull(shops.deletedAt)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Cette boutique n'existe pas ou plus." });
  const tz = shop.timezone;
  const [periods, [rating], myCardRows, myReviewRows, shopRewards] = await Promise.all([
    loadPeriods(db, shop.id),
    db
      .select({ average: avg(shopReviews.rating), count: count() })
      .from(shopReviews)
      .where(eq(shopReviews.shopId, shop.id)),
    viewerId
      ? db
          .select()
          .from(cards)
          .where(and(eq(cards.shopId, shop.id), eq(cards.userId, viewerId)))
          .limit(1)
      : Promise.resolve([]),
    viewerId
      ? db
          .select()
          .from(shopReviews)
          .where(and(eq(shopReviews.shopId, shop.id), eq(shopReviews.userId, viewerId)))
          .limit(1)
      : Promise.resolve([]),
    listShopRewardsFor(db, shop, viewerId, now),
  ]);
  const today = localParts(now, tz).date;
  const card = myCardRows[0];
  const active = multiplierAt(periods, now, tz);
  let myCard = null;
  if (card) {
    const check = checkVisit({ lastScanAt: card.lastScanAt, dayKey: card.dayKey, dayCount: card.dayCount }, shop, now, tz);
    myCard = {
      id: card.id,
      balance: card.balance,
      lifetime: card.lifetime,
      visits: card.visits,
      lastScanAt: card.lastScanAt?.toISOString() ?? null,
      progress: cardProgress(shop.cardMode, shop.stampsGoal, card.balance),
      canScanNow: check.ok,
      nextScanAt: check.ok ? null : check.nextAt.toISOString(),
    };
  }
  const review = myReviewRows[0];
  return {
    shop: {
      id: shop.id,
      slug: shop.slug,
      name: shop.name,
      category: shop.category,
      categoryLabel: categoryLabelFr(shop.category),
      description: shop.description,
      address: shop.address,
      postalCode: shop.postalCode,
      city: shop.city,
      phone: shop.phone,
      lat: shop.lat,
      lng: shop.lng,
      mapUrl: mapUrl(shop),
      links: shop.links,
      logoUrl: imageUrl(shop.slug, "logo", shop.hasLogo, shop.updatedAt),
      coverUrl: imageUrl(shop.slug, "cover", shop.hasCover, shop.updatedAt),
      design: designOf(shop.cardDesign),
      status: shop.status,
      timezone: tz,
    },
    hours: {
      ...openNow(shop.weeklyHours, shop.closures, tz, now),
      weekly: shop.weeklyHours.map((ranges, i) => ({
        weekday: i + 1,
        dayLabel: WEEKDAYS_FR[i]!,
        ranges,
        text: dayHoursLabelFr(ranges),
        isToday: localParts(now, tz).weekday === i + 1,
      })),
      closures: shop.closures.filter((c) => c.endDate >= today).slice(0, 10),
      closedToday: closureOn(shop.closures, today) ?? null,
    },
    rules: {
      mode: shop.cardMode,
      stampsGoal: shop.stampsGoal,
      pointsPerVisit: shop.pointsPerVisit,
      cooldownMinutes: shop.cooldownMinutes,
      dailyCap: shop.dailyCap,
      summary: rulesSummaryFr(shop),
    },
    doublePoints: {
      activeNow: active.period ? { label: active.period.label, multiplier: active.multiplier } : null,
      periods: periods.filter((p) => p.isActive && !isPeriodOver(p, now, tz)).map(periodDto),
    },
    rating: { average: rating?.average ? Math.round(Number(rating.average) * 10) / 10 : null, count: rating?.count ?? 0 },
    myCard,
    /** What the shop offers, each with whether this viewer can use it now (or why not). */
    rewards: shopRewards,
    myReview: review ? { rating: review.rating, comment: review.comment, updatedAt: review.updatedAt.toISOString() } : null,
    canReview: Boolean(card && card.visits > 0),
  };
}

/** /boutique/{scanUid}: the shop a code belongs to, before it is credited (name and design only). */
export async function getShopByScanUid(db: Db, scanUid: string) {
  const [shop] = await db
    .select({
      slug: shops.slug,
      name: shops.name,
      status: shops.status,
      cardDesign: shops.cardDesign,
      hasLogo: sql<boolean>`${shops.logo} is not null`,
      updatedAt: shops.updatedAt,
      cardMode: shops.cardMode,
    })
    .from(shops)
    .where(eq(shops.scanUid, scanUid))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Ce code ne correspond à aucune boutique Fidèle." });
  return {
    slug: shop.slug,
    name: shop.name,
    status: shop.status,
    mode: shop.cardMode,
    design: designOf(shop.cardDesign),
    logoUrl: imageUrl(shop.slug, "logo", shop.hasLogo, shop.updatedAt),
  };
}

/** The logo or cover of a shop, decoded from its data URL. */
export async function getShopImage(db: Db, slug: string, kind: "logo" | "cover") {
  const [row] = await db
    .select({ data: kind === "logo" ? shops.logo : shops.cover })
    .from(shops)
    .where(eq(shops.slug, slug))
    .limit(1);
  return decodeImageDataUrl(row?.data);
}

export async function listMyShops(db: Db, userId: string) {
  const rows = await db
    .select({ id: shops.id, slug: shops.slug, name: shops.name, status: shops.status, role: member.role })
    .from(member)
    .innerJoin(shops, eq(shops.id, member.organizationId))
    .where(eq(member.userId, userId))
    .orderBy(asc(shops.name));
  return rows;
}
