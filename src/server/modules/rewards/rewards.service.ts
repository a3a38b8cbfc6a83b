import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import {
  birthdayWeekYear,
  effectiveLimit,
  type RewardKind,
  redeemRefusal,
  redeemRefusalFr,
  tierFor,
  unitLabelFr,
} from "../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../domain/loyalty/scan-rules.ts";
import { slugify } from "../../../domain/loyalty/shop-text.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { RewardValues, rewardSettingsSchema, vipTiersSchema } from "../../../domain/schemas/rewards.ts";
import type { Db } from "../../db/client.ts";
import { cards, profiles, redemptions, rewards, shops, vipTiers } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../backoffice/access.ts";
import { decodeImageDataUrl, imageUrl } from "../shops/shop-dto.ts";
import type { z } from "zod";

/**
 * The rewards catalogue (owner), what a shopper sees of it (reachable or why not),
 * VIP levels and gifts. Redemption itself is in redemptions.service.ts.
 */

const rewardNotFound = () => new AppError("NOT_FOUND", { userMessage: "Cette récompense n'existe pas ou plus." });

export function rewardPhotoUrl(slug: string, has: boolean, version: Date): string | null {
  return has ? `/api/rewards/${encodeURIComponent(slug)}/photo?v=${version.getTime().toString(36)}` : null;
}

const rewardColumns = {
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
  const fmt = (d: string) =>
    new Intl.DateTimeFormat("fr-FR", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" }).format(
      new Date(`${d}T00:00:00Z`),
    );
  if (r.validFrom && r.validUntil) out.push(`Valable du ${fmt(r.validFrom)} au ${fmt(r.validUntil)}.`);
  else if (r.validFrom) out.push(`Valable à partir du ${fmt(r.validFrom)}.`);
  else if (r.validUntil) out.push(`Valable jusqu'au ${fmt(r.validUntil)}.`);
  return out;
}

type Viewer = { balance: number; hasCard: boolean; usedByReward: Map<string, number> } | null;

function shopperRewardDto(r: RewardRow, shop: { mode: CardMode; status: string; today: string }, viewer: Viewer) {
  const base = {
    id: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    photoUrl: rewardPhotoUrl(r.slug, Boolean(r.hasPhoto), r.updatedAt),
    cost: r.cost,
    costLabel: unitLabelFr(shop.mode, r.cost),
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
export type ShopperReward = ReturnType<typeof shopperRewardDto>;

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
      .orderBy(asc(rewards.position), asc(rewards.createdAt)),
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
      shopSlug: shops.slug,
      shopName: shops.name,
      shopStatus: shops.status,
      cardMode: shops.cardMode,
      timezone: shops.timezone,
      ttl: shops.redemptionTtlMinutes,
      shopHasLogo: sql<boolean>`${shops.logo} is not null`,
      shopUpdatedAt: shops.updatedAt,
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
      slug: row.shopSlug,
      name: row.shopName,
      mode: row.cardMode,
      logoUrl: imageUrl(row.shopSlug, "logo", Boolean(row.shopHasLogo), row.shopUpdatedAt),
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

/* The owner's catalogue ------------------------------------------------------ */

async function ownerRewardRows(db: Db, access: ShopAccess, rewardId?: string) {
  return db
    .select({
      ...rewardColumns,
      pending: sql<number>`(select count(*)::int from redemptions d where d.reward_id = "rewards"."id" and d.status = 'pending' and d.expires_at > now())`,
      validated: sql<number>`(select count(*)::int from redemptions d where d.reward_id = "rewards"."id" and d.status = 'validated')`,
      cardMode: shops.cardMode,
    })
    .from(rewards)
    .innerJoin(shops, eq(shops.id, rewards.shopId))
    .where(
      and(
        eq(rewards.shopId, shopScope(access)),
        isNull(rewards.archivedAt),
        rewardId ? eq(rewards.id, rewardId) : undefined,
      ),
    )
    .orderBy(asc(rewards.position), asc(rewards.createdAt));
}

function ownerRewardDto(r: Awaited<ReturnType<typeof ownerRewardRows>>[number]) {
  return {
    id: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    photoUrl: rewardPhotoUrl(r.slug, Boolean(r.hasPhoto), r.updatedAt),
    cost: r.cost,
    costLabel: unitLabelFr(r.cardMode, r.cost),
    stock: r.stock,
    perCustomerLimit: r.perCustomerLimit,
    validFrom: r.validFrom,
    validUntil: r.validUntil,
    kind: r.kind,
    isActive: r.isActive,
    position: r.position,
    pending: r.pending,
    validated: r.validated,
    conditions: rewardConditionsFr(r, r.cardMode),
  };
}
export type OwnerReward = ReturnType<typeof ownerRewardDto>;

export async function listOwnerRewards(db: Db, access: ShopAccess) {
  const rows = await ownerRewardRows(db, access);
  const [shop] = await db
    .select({ mode: shops.cardMode })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  return { rewards: rows.map(ownerRewardDto), mode: shop?.mode ?? "stamps" };
}

export async function getOwnerReward(db: Db, access: ShopAccess, rewardId: string) {
  const [row] = await ownerRewardRows(db, access, rewardId);
  if (!row) throw rewardNotFound();
  const [photo] = await db.select({ photo: rewards.photo }).from(rewards).where(eq(rewards.id, row.id)).limit(1);
  return { ...ownerRewardDto(row), photo: photo?.photo ?? null };
}

function randomSuffix(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

export async function createReward(db: Db, access: ShopAccess, input: RewardValues) {
  const [shop] = await db
    .select({ slug: shops.slug })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  const slug = `${slugify(input.title).slice(0, 50)}-${randomSuffix()}`;
  const [created] = await db
    .insert(rewards)
    .values({
      ...input,
      shopId: access.shopId,
      slug,
      position: sql`coalesce((select max(r.position) + 1 from rewards r where r.shop_id = ${access.shopId}), 0)`,
    })
    .returning({ id: rewards.id });
  return getOwnerReward(db, access, created!.id);
}

/** Editing a reward changes what is offered from now on; redemptions keep their own copy. */
export async function updateReward(db: Db, access: ShopAccess, rewardId: string, input: RewardValues) {
  const updated = await db
    .update(rewards)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(rewards.id, rewardId), eq(rewards.shopId, shopScope(access)), isNull(rewards.archivedAt)))
    .returning({ id: rewards.id });
  if (updated.length === 0) throw rewardNotFound();
  return getOwnerReward(db, access, rewardId);
}

export async function setRewardActive(db: Db, access: ShopAccess, rewardId: string, isActive: boolean) {
  const updated = await db
    .update(rewards)
    .set({ isActive, updatedAt: new Date() })
    .where(and(eq(rewards.id, rewardId), eq(rewards.shopId, shopScope(access)), isNull(rewards.archivedAt)))
    .returning({ id: rewards.id });
  if (updated.length === 0) throw rewardNotFound();
  return getOwnerReward(db, access, rewardId);
}

/** The new order must name every reward of the shop exactly once. */
export async function reorderRewards(db: Db, access: ShopAccess, ids: string[]) {
  return db.transaction(async (tx) => {
    const current = await tx
      .select({ id: rewards.id })
      .from(rewards)
      .where(and(eq(rewards.shopId, shopScope(access)), isNull(rewards.archivedAt)))
      .for("update");
    const known = new Set(current.map((r) => r.id));
    if (known.size !== ids.length || !ids.every((id) => known.has(id))) {
      throw new AppError("CONFLICT", {
        userMessage: "La liste a changé entre-temps : rechargez la page et recommencez.",
      });
    }
    for (const [position, id] of ids.entries()) {
      await tx
        .update(rewards)
        .set({ position })
        .where(and(eq(rewards.id, id), eq(rewards.shopId, access.shopId)));
    }
    return { ids };
  });
}

/**
 * Deleting a reward nobody redeemed removes it; one with redemptions is archived
 * (hidden everywhere, kept for history). Either way it stops being a VIP gift or
 * the birthday gift.
 */
export async function deleteReward(db: Db, access: ShopAccess, rewardId: string) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select({
        id: rewards.id, // Spelled out: drizzle leaves columns unqualified in a one-table select.
        used: sql<boolean>`exists (select 1 from redemptions d where d.reward_id = "rewards"."id")`,
      })
      .from(rewards)
      .where(and(eq(rewards.id, rewardId), eq(rewards.shopId, shopScope(access)), isNull(rewards.archivedAt)))
      .for("update");
    if (!row) throw rewardNotFound();
    await tx.update(vipTiers).set({ rewardId: null }).where(eq(vipTiers.rewardId, rewardId));
    await tx
      .update(shops)
      .set({ birthdayRewardId: null })
      .where(and(eq(shops.id, access.shopId), eq(shops.birthdayRewardId, rewardId)));
    if (row.used) {
      await tx.update(rewards).set({ archivedAt: new Date(), isActive: false }).where(eq(rewards.id, rewardId));
      return { archived: true };
    }
    await tx.delete(rewards).where(eq(rewards.id, rewardId));
    return { archived: false };
  });
}

async function assertOwnRewards(db: Db, access: ShopAccess, ids: (string | null)[]) {
  const wanted = [...new Set(ids.filter((x): x is string => Boolean(x)))];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: rewards.id })
    .from(rewards)
    .where(and(inArray(rewards.id, wanted), eq(rewards.shopId, shopScope(access)), isNull(rewards.archivedAt)));
  if (found.length !== wanted.length) {
    throw new AppError("VALIDATION", {
      userMessage: "Cette récompense n'existe pas dans votre boutique.",
      fields: { rewardId: "Récompense introuvable." },
    });
  }
}

export async function getRewardSettings(db: Db, access: ShopAccess) {
  const [shop] = await db
    .select({ redemptionTtlMinutes: shops.redemptionTtlMinutes, birthdayRewardId: shops.birthdayRewardId })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

export async function updateRewardSettings(db: Db, access: ShopAccess, input: z.output<typeof rewardSettingsSchema>) {
  await assertOwnRewards(db, access, [input.birthdayRewardId]);
  await db
    .update(shops)
    .set({
      redemptionTtlMinutes: input.redemptionTtlMinutes,
      birthdayRewardId: input.birthdayRewardId,
      updatedAt: new Date(),
    })
    .where(eq(shops.id, shopScope(access)));
  return getRewardSettings(db, access);
}

/* VIP levels ------------------------------------------------------------------ */

async function tiersOf(db: Db, shopId: string | ReturnType<typeof shopScope>) {
  return db
    .select({
      id: vipTiers.id,
      name: vipTiers.name,
      threshold: vipTiers.threshold,
      multiplier: vipTiers.multiplier,
      rewardId: vipTiers.rewardId,
      rewardTitle: rewards.title,
      rewardSlug: rewards.slug,
      shopId: vipTiers.shopId,
    })
    .from(vipTiers)
    .leftJoin(rewards, and(eq(rewards.id, vipTiers.rewardId), isNull(rewards.archivedAt)))
    .where(eq(vipTiers.shopId, shopId))
    .orderBy(asc(vipTiers.threshold));
}

export async function getVipTiers(db: Db, access: ShopAccess) {
  const tiers = await tiersOf(db, shopScope(access));
  return { tiers: tiers.map(({ shopId: _s, ...t }) => t) };
}

/** The whole ladder at once; customers' levels follow at once (they are computed, never stored). */
export async function replaceVipTiers(db: Db, access: ShopAccess, input: z.output<typeof vipTiersSchema>) {
  await assertOwnRewards(
    db,
    access,
    input.tiers.map((t) => t.rewardId),
  );
  await db.transaction(async (tx) => {
    const [shop] = await tx
      .select({ id: shops.id })
      .from(shops)
      .where(eq(shops.id, shopScope(access)))
      .for("update");
    if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
    await tx.delete(vipTiers).where(eq(vipTiers.shopId, shop.id));
    if (input.tiers.length > 0) await tx.insert(vipTiers).values(input.tiers.map((t) => ({ ...t, shopId: shop.id })));
  });
  return getVipTiers(db, access);
}

/**
 * /vip: for each of my cards, the shop's levels, mine (on the lifetime total) and
 * what the next needs; the gifts I can claim now (a level's gift, the birthday
 * gift in my birthday week) and those already claimed.
 */
export async function getMyVip(db: Db, userId: string, now = new Date()) {
  const myCards = await db
    .select({
      id: cards.id,
      shopId: cards.shopId,
      balance: cards.balance,
      lifetime: cards.lifetime,
      shopSlug: shops.slug,
      shopName: shops.name,
      shopStatus: shops.status,
      mode: shops.cardMode,
      timezone: shops.timezone,
      birthdayRewardId: shops.birthdayRewardId,
      shopHasLogo: sql<boolean>`${shops.logo} is not null`,
      shopUpdatedAt: shops.updatedAt,
    })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .where(eq(cards.userId, userId))
    .orderBy(sql`${cards.lastScanAt} desc nulls last`);
  if (myCards.length === 0) return { cards: [], hasBirthday: false };
  const shopIds = [...new Set(myCards.map((c) => c.shopId))];
  const birthdayIds = myCards.map((c) => c.birthdayRewardId).filter((x): x is string => Boolean(x));
  const [tiers, gifts, [profile], birthdayRewards] = await Promise.all([
    db
      .select({
        id: vipTiers.id,
        shopId: vipTiers.shopId,
        name: vipTiers.name,
        threshold: vipTiers.threshold,
        multiplier: vipTiers.multiplier,
        rewardId: vipTiers.rewardId,
        rewardTitle: rewards.title,
      })
      .from(vipTiers)
      .leftJoin(rewards, and(eq(rewards.id, vipTiers.rewardId), isNull(rewards.archivedAt)))
      .where(inArray(vipTiers.shopId, shopIds))
      .orderBy(asc(vipTiers.threshold)),
    db
      .select({
        id: redemptions.id,
        cardId: redemptions.cardId,
        source: redemptions.source,
        sourceRef: redemptions.sourceRef,
        status: redemptions.status,
      })
      .from(redemptions)
      .where(
        and(
          eq(redemptions.userId, userId),
          inArray(redemptions.source, ["vip", "birthday"]),
          inArray(redemptions.status, ["pending", "validated"]),
        ),
      ),
    db.select({ birthday: profiles.birthday }).from(profiles).where(eq(profiles.id, userId)).limit(1),
    birthdayIds.length
      ? db
          .select({ id: rewards.id, title: rewards.title })
          .from(rewards)
          .where(and(inArray(rewards.id, birthdayIds), isNull(rewards.archivedAt)))
      : Promise.resolve([]),
  ]);
  const birthday = profile?.birthday ?? null;
  return {
    hasBirthday: Boolean(birthday),
    cards: myCards.map((card) => {
      const shopTiers = tiers.filter((t) => t.shopId === card.shopId);
      const standing = tierFor(shopTiers, card.lifetime);
      const claimed = (source: string, ref: string) =>
        gifts.find((g) => g.cardId === card.id && g.source === source && g.sourceRef === ref) ?? null;
      const today = localParts(now, card.timezone).date;
      const year = birthdayWeekYear(birthday, today);
      const birthdayReward = birthdayRewards.find((r) => r.id === card.birthdayRewardId);
      const birthdayClaim = year !== null ? claimed("birthday", String(year)) : null;
      return {
        cardId: card.id,
        shop: {
          slug: card.shopSlug,
          name: card.shopName,
          logoUrl: imageUrl(card.shopSlug, "logo", Boolean(card.shopHasLogo), card.shopUpdatedAt),
        },
        mode: card.mode,
        lifetime: card.lifetime,
        lifetimeLabel: unitLabelFr(card.mode, card.lifetime),
        tiers: shopTiers.map((t) => ({
          id: t.id,
          name: t.name,
          threshold: t.threshold,
          thresholdLabel: unitLabelFr(card.mode, t.threshold),
          multiplier: t.multiplier,
          gift: t.rewardTitle ?? null,
          reached: card.lifetime >= t.threshold,
        })),
        current: standing.current
          ? { id: standing.current.id, name: standing.current.name, multiplier: standing.current.multiplier }
          : null,
        next: standing.next
          ? {
              id: standing.next.id,
              name: standing.next.name,
              missing: standing.missing,
              missingLabel: unitLabelFr(card.mode, standing.missing),
            }
          : null,
        percent: standing.percent,
        /** The shop's birthday gift (shown even outside the birthday week, so people know to give their birthday). */
        birthdayGift: birthdayReward && card.shopStatus === "active" ? { title: birthdayReward.title } : null,
        gifts: [
          ...shopTiers
            .filter((t) => t.rewardId && t.rewardTitle && card.lifetime >= t.threshold)
            .map((t) => {
              const c = claimed("vip", t.id);
              return {
                source: "vip" as const,
                tierId: t.id,
                title: `${t.rewardTitle} — cadeau du niveau ${t.name}`,
                redemptionId: c?.id ?? null,
                status: c?.status ?? null,
              };
            }),
          ...(year !== null && birthdayReward && card.shopStatus === "active"
            ? [
                {
                  source: "birthday" as const,
                  tierId: null,
                  title: `${birthdayReward.title} — joyeux anniversaire !`,
                  redemptionId: birthdayClaim?.id ?? null,
                  status: birthdayClaim?.status ?? null,
                },
              ]
            : []),
        ],
      };
    }),
  };
}

/**
 * A gift's reward and its once-only key, after checking the shopper may have it
 * now: a VIP level reached (lifetime total) with a gift, or the birthday week.
 */
export async function giftTarget(
  db: Db,
  userId: string,
  input: { cardId: string; source: "vip" | "birthday"; tierId?: string | null },
  now = new Date(),
): Promise<{ rewardId: string; sourceRef: string }> {
  const notEligible = () => new AppError("CONFLICT", { userMessage: redeemRefusalFr("not_eligible") });
  const [card] = await db
    .select({
      id: cards.id,
      shopId: cards.shopId,
      lifetime: cards.lifetime,
      timezone: shops.timezone,
      birthdayRewardId: shops.birthdayRewardId,
    })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .where(and(eq(cards.id, input.cardId), eq(cards.userId, userId)))
    .limit(1);
  if (!card) throw new AppError("NOT_FOUND", { userMessage: "Carte introuvable." });
  if (input.source === "vip") {
    if (!input.tierId) throw notEligible();
    const [tier] = await db
      .select({ id: vipTiers.id, threshold: vipTiers.threshold, rewardId: vipTiers.rewardId })
      .from(vipTiers)
      .where(and(eq(vipTiers.id, input.tierId), eq(vipTiers.shopId, card.shopId)))
      .limit(1);
    if (!tier?.rewardId || card.lifetime < tier.threshold) throw notEligible();
    return { rewardId: tier.rewardId, sourceRef: tier.id };
  }
  const [profile] = await db
    .select({ birthday: profiles.birthday })
    .from(profiles)
    .where(eq(profiles.id, userId))
    .limit(1);
  const year = birthdayWeekYear(profile?.birthday ?? null, localParts(now, card.timezone).date);
  if (year === null || !card.birthdayRewardId) throw notEligible();
  return { rewardId: card.birthdayRewardId, sourceRef: String(year) };
}
