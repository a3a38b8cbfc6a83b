import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { formatLocalDate, } from "../../../domain/format.ts";
import {
  effectiveLimit,
  type RewardKind,
  redeemRefusal,
  redeemRefusalFr,
  REWARDS_PER_SHOP_MAX,
  unitLabelFr,
} from "../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../domain/loyalty/scan-rules.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { Db } from "../../db/client.ts";
import { cards, redemptions, rewards, shops, } from "../../db/schema/index.ts";
import { decodeImageDataUrl, imageUrl } from "../../lib/shop-dto.ts";

/**
 * The rewards catalogue (owner), what a shopper sees of it (reachable or why not),
 * VIP levels and gifts. Redemption itself is in redemptions.service.ts.
 */

/** The shop as a shopper's reward, redemption or card names it: read with these columns, shown by shopBadge. */
export const shopBadgeColumns = {
  shopSlug: shops.slug,
  shopName: shops.name,
  shopHasLogo: sql<boolean>`${shops.logo} is not null`,
  shopUpdatedAt: shops.updatedAt,
};

export function shopBadge(r: { shopSlug: string; shopName: string; shopHasLogo: boolean; shopUpdatedAt: Date }) {
  return {
    slug: r.shopSlug,
    name: r.shopName,
    logoUrl: imageUrl(r.shopSlug, "logo", Boolean(r.shopHasLogo), r.shopUpdatedAt),
  };
}

export const rewardNotFound = () => new AppError("NOT_FOUND", { userMessage: "Cette récompense n'existe pas ou plus." });

export function rewardPhotoUrl(slug: string, has: boolean, version: Date): string | null {
  return has ? `/api/rewards/${encodeURIComponent(slug)}/photo?v=${version.getTime().toString(36)}` : null;
}

export const rewardColumns = {
  id: rewards.id,
  shopId: rewards.shopId,
  slug: rewards.slug,
  title: rewards.title,
  description: rewards.description,
  hasPhoto: sql<boolean>`${rewards.photo} is not null`,
  cost: rewards.cost,
  stock: rewards.stock,
  perCustomerLimit: rewards.perCustomerLimit,
  validFrom: rewards.validFrom,
  validUntil: rewards.validUntil,
  kind: rewards.kind,
  isActive: rewards.isActive,
  position: rewards.position,
  updatedAt: rewards.updatedAt,
};
type RewardRow = {
  id: string;
  shopId: string;
  slug: string;
  title: string;
  description: string | null;
  hasPhoto: boolean;
  cost: number;
  stock: number | null;
  perCustomerLimit: number | null;
  validFrom: string | null;
  validUntil: string | null;
  kind: RewardKind;
  isActive: boolean;
  position: number;
  updatedAt: Date;
};

/** Conditions in plain French, as listed under a reward. */
export function rewardConditionsFr(r: RewardRow, mode: CardMode): string[] {
  const out: string[] = [`Coûte ${unitLabelFr(mode, r.cost)}.`];
  const limit = effectiveLimit(r);
  if (r.kind === "ladder") out.push("Une seule fois par client.");
  else if (limit !== null) out.push(`Au plus ${limit} fois par client.`);
  if (r.stock !== null) out.push(r.stock > 0 ? `Encore ${r.stock} disponible${r.stock > 1 ? "s" : ""}.` : "Épuisée.");
  const fmt = formatLocalDate;
  if (r.validFrom && r.validUntil) out.push(`Valable du ${fmt(r.validFrom)} au ${fmt(r.validUntil)}.`);
  else if (r.validFrom) out.push(`Valable à partir du ${fmt(r.validFrom)}.`);
  else if (r.validUntil) out.push(`Valable jusqu'au ${fmt(r.validUntil)}.`);
  return out;
}

/** What both the shopper and the owner see of a reward. */
export function rewardSummary(
  r: Pick<RewardRow, "id" | "slug" | "title" | "description" | "hasPhoto" | "updatedAt" | "cost">,
  mode: CardMode,
) {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    photoUrl: rewardPhotoUrl(r.slug, Boolean(r.hasPhoto), r.updatedAt),
    cost: r.cost,
    costLabel: unitLabelFr(mode, r.cost),
  };
}

type Viewer = { balance: number; hasCard: boolean; usedByReward: Map<string, number> } | null;

function shopperRewardDto(r: RewardRow, shop: { mode: CardMode; status: string; today: string }, viewer: Viewer) {
  const base = {
    ...rewardSummary(r, shop.mode),
    kind: r.kind,
    stockLeft: r.stock,
    conditions: rewardConditionsFr(r, shop.mode),
  };
  const refusal = redeemRefusal(r, {
    balance: viewer?.balance ?? 0,
    hasCard: viewer?.hasCard ?? false,
    used: viewer?.usedByReward.get(r.id) ?? 0,
    shopActive: shop.status === "active",
    today: shop.today,
  });
  const missing = Math.max(0, r.cost - (viewer?.balance ?? 0));
  return {
    ...base,
    reachable: viewer !== null && refusal === null,
    missing,
    /** Why not, in French; null when reachable or when the viewer is signed out. */
    refusal:
      viewer === null || refusal === null
        ? null
        : redeemRefusalFr(refusal, { mode: shop.mode, missing, validFrom: r.validFrom, validUntil: r.validUntil }),
    progressPercent: Math.min(100, Math.round(((viewer?.balance ?? 0) / r.cost) * 100)),
  };
}

async function viewerStanding(db: Db, shopId: string, userId: string | null): Promise<Viewer> {
  if (!userId) return null;
  const [card] = await db
    .select({ id: cards.id, balance: cards.balance })
    .from(cards)
    .where(and(eq(cards.shopId, shopId), eq(cards.userId, userId)))
    .limit(1);
  const usedByReward = new Map<string, number>();
  if (card) {
    const used = await db
      .select({ rewardId: redemptions.rewardId, n: sql<number>`count(*)::int` })
      .from(redemptions)
      .where(
        and(
          eq(redemptions.cardId, card.id),
          eq(redemptions.source, "reward"),
          inArray(redemptions.status, ["pending", "validated"]),
        ),
      )
      .groupBy(redemptions.rewardId);
    for (const u of used) usedByReward.set(u.rewardId, u.n);
  }
  return { balance: card?.balance ?? 0, hasCard: Boolean(card), usedByReward };
}

/** The rewards a shop offers now (switched on, not archived), in the owner's order, for this viewer. */
export async function listShopRewardsFor(
  db: Db,
  shop: { id: string; cardMode: CardMode; status: string; timezone: string },
  userId: string | null,
  now = new Date(),
) {
  const [rows, viewer] = await Promise.all([
    db
      .select(rewardColumns)
      .from(rewards)
      .where(and(eq(rewards.shopId, shop.id), eq(rewards.isActive, true), isNull(rewards.archivedAt)))
      .orderBy(asc(rewards.position), asc(rewards.createdAt))
      // Bounded even for a shop from before the cap (REWARDS_PER_SHOP_MAX).
      .limit(REWARDS_PER_SHOP_MAX),
    viewerStanding(db, shop.id, userId),
  ]);
  const today = localParts(now, shop.timezone).date;
  return rows.map((r) => shopperRewardDto(r, { mode: shop.cardMode, status: shop.status, today }, viewer));
}

/**
 * For each card: how many rewards it can take now (every rule applied, as the
 * shop page says), and the cheapest one that only lacks points.
 */
export async function rewardsGlance(db: Db, cardRows: { id: string; shopId: string; balance: number }[], now = new Date()) {
  const out = new Map<string, { reachable: number; next: { title: string; slug: string; cost: number; missing: number } | null }>();
  if (cardRows.length === 0) return out;
  const shopIds = [...new Set(cardRows.map((c) => c.shopId))];
  const cardIds = cardRows.map((c) => c.id);
  const [rows, used] = await Promise.all([
    db
      .select({ ...rewardColumns, shopStatus: shops.status, timezone: shops.timezone })
      .from(rewards)
      .innerJoin(shops, eq(shops.id, rewards.shopId))
      .where(and(inArray(rewards.shopId, shopIds), eq(rewards.isActive, true), isNull(rewards.archivedAt)))
      .orderBy(asc(rewards.cost)),
    db
      .select({ cardId: redemptions.cardId, rewardId: redemptions.rewardId, n: sql<number>`count(*)::int` })
      .from(redemptions)
      .where(and(inArray(redemptions.cardId, cardIds), eq(redemptions.source, "reward"), inArray(redemptions.status, ["pending", "validated"])))
      .groupBy(redemptions.cardId, redemptions.rewardId),
  ]);
  for (const card of cardRows) {
    let reachable = 0;
    let next: { title: string; slug: string; cost: number; missing: number } | null = null;
    for (const r of rows) {
      if (r.shopId !== card.shopId) continue;
      const refusal = redeemRefusal(r, {
        balance: card.balance,
        hasCard: true,
        used: used.find((u) => u.cardId === card.id && u.rewardId === r.id)?.n ?? 0,
        shopActive: r.shopStatus === "active",
        today: localParts(now, r.timezone).date,
      });
      if (refusal === null) reachable++;
      else if (refusal === "insufficient" && next === null) next = { title: r.title, slug: r.slug, cost: r.cost, missing: r.cost - card.balance };
    }
    out.set(card.id, { reachable, next });
  }
  return out;
}

/** /reward/{slug}: the reward, its shop, and where the viewer stands. An archived reward is gone. */
export async function getRewardPage(db: Db, slug: string, userId: string | null, now = new Date()) {
  const [row] = await db
    .select({
      ...rewardColumns,
      ...shopBadgeColumns,
      shopStatus: shops.status,
      cardMode: shops.cardMode,
      timezone: shops.timezone,
      ttl: shops.redemptionTtlMinutes,
    })
    .from(rewards)
    .innerJoin(shops, eq(shops.id, rewards.shopId))
    .where(and(eq(rewards.slug, slug), isNull(rewards.archivedAt)))
    .limit(1);
  if (!row) throw rewardNotFound();
  const viewer = await viewerStanding(db, row.shopId, userId);
  const today = localParts(now, row.timezone).date;
  const pending = userId
    ? await db
        .select({ id: redemptions.id })
        .from(redemptions)
        .where(
          and(
            eq(redemptions.rewardId, row.id),
            eq(redemptions.userId, userId),
            eq(redemptions.status, "pending"),
            sql`${redemptions.expiresAt} > now()`,
          ),
        )
        .limit(1)
    : [];
  return {
    reward: {
      ...shopperRewardDto(row, { mode: row.cardMode, status: row.shopStatus, today }, viewer),
      isActive: row.isActive,
    },
    shop: {
      ...shopBadge(row),
      mode: row.cardMode,
      redemptionTtlMinutes: row.ttl,
    },
    card: viewer?.hasCard ? { balance: viewer.balance, balanceLabel: unitLabelFr(row.cardMode, viewer.balance) } : null,
    pendingRedemptionId: pending[0]?.id ?? null,
  };
}

export async function getRewardPhoto(db: Db, slug: string) {
  const [row] = await db.select({ data: rewards.photo }).from(rewards).where(eq(rewards.slug, slug)).limit(1);
  return decodeImageDataUrl(row?.data);
}

/** slug → id, per database: a slug never changes nor moves to another reward (archiving is checked under lock). */
const rewardIds = new WeakMap<Db, Map<string, string>>();
const MAX_CACHED_SLUGS = 10_000;

/** The reward a slug names, for redeeming: its id only (the database checks the rest under lock). */
export async function rewardIdBySlug(db: Db, slug: string): Promise<string> {
  let cache = rewardIds.get(db);
  if (!cache) {
    cache = new Map();
    rewardIds.set(db, cache);
  }
  const cached = cache.get(slug);
  if (cached) return cached;
  const [row] = await db
    .select({ id: rewards.id })
    .from(rewards)
    .where(and(eq(rewards.slug, slug), isNull(rewards.archivedAt)))
    .limit(1);
  if (!row) throw rewardNotFound();
  if (cache.size >= MAX_CACHED_SLUGS) cache.clear();
  cache.set(slug, row.id);
  return row.id;
}
