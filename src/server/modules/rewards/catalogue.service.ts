import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { formatNumber } from "../../../domain/format.ts";
import { REWARDS_PER_SHOP_MAX } from "../../../domain/loyalty/rewards.ts";
import { slugify } from "../../../domain/loyalty/shop-text.ts";
import type { RewardValues, rewardSettingsSchema } from "../../../domain/schemas/rewards.ts";
import type { Db } from "../../db/client.ts";
import { rewards, shops, vipTiers } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import type { z } from "zod";
import { rewardColumns, rewardConditionsFr, rewardNotFound, rewardSummary } from "./rewards.service.ts";

/** The owner's catalogue: rewards, their order, the redemption settings. */

/* The owner's catalogue ------------------------------------------------------ */

async function ownerRewardRows(
  db: Db,
  access: ShopAccess,
  rewardId?: string,
  page = { limit: REWARDS_PER_SHOP_MAX, offset: 0 },
) {
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
    .orderBy(asc(rewards.position), asc(rewards.createdAt), asc(rewards.id))
    .limit(page.limit)
    .offset(page.offset);
}

function ownerRewardDto(r: Awaited<ReturnType<typeof ownerRewardRows>>[number]) {
  return {
    ...rewardSummary(r, r.cardMode),
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

/** One page of the catalogue (a whole catalogue at its cap fits in the largest page), with the total. */
export async function listOwnerRewards(db: Db, access: ShopAccess, page = { limit: REWARDS_PER_SHOP_MAX, offset: 0 }) {
  const rows = await ownerRewardRows(db, access, undefined, page);
  const [shop] = await db
    .select({
      mode: shops.cardMode,
      total: sql<number>`(select count(*)::int from rewards r where r.shop_id = "shops"."id" and r.archived_at is null)`,
    })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  const total = shop?.total ?? 0;
  return {
    rewards: rows.map(ownerRewardDto),
    mode: shop?.mode ?? "stamps",
    total,
    max: REWARDS_PER_SHOP_MAX,
    nextOffset: page.offset + rows.length < total ? page.offset + rows.length : null,
  };
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
  // The cap is counted under a lock on the shop: simultaneous creations queue instead of all passing the count.
  const created = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`rewards-shop:${access.shopId}`}, 0))`);
    const [held] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(rewards)
      .where(and(eq(rewards.shopId, access.shopId), isNull(rewards.archivedAt)));
    if ((held?.n ?? 0) >= REWARDS_PER_SHOP_MAX) {
      throw new AppError("CONFLICT", {
        message: "too many rewards",
        userMessage: `Votre boutique propose déjà ${formatNumber(REWARDS_PER_SHOP_MAX)} récompenses, le maximum : supprimez-en une avant d'en créer une autre.`,
      });
    }
    const [row] = await tx
      .insert(rewards)
      .values({
        ...input,
        shopId: access.shopId,
        slug,
        position: sql`coalesce((select max(r.position) + 1 from rewards r where r.shop_id = ${access.shopId}), 0)`,
      })
      .returning({ id: rewards.id });
    return row!;
  });
  return getOwnerReward(db, access, created.id);
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

export async function assertOwnRewards(db: Db, access: ShopAccess, ids: (string | null)[]) {
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
