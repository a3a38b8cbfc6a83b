import { and, asc, eq, inArray, isNull, type SQL, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { birthdayWeekYear, redeemRefusalFr, tierFor, unitLabelFr } from "../../../domain/loyalty/rewards.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import { formatDateTimeIn } from "../../../domain/format.ts";
import type { vipTiersSchema } from "../../../domain/schemas/rewards.ts";
import type { Db } from "../../db/client.ts";
import { cards, profiles, redemptions, rewards, shops, vipTiers } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import type { z } from "zod";
import { assertOwnRewards } from "./catalogue.service.ts";
import { runningOffers } from "../messages/offers.service.ts";
import { shopBadge, shopBadgeColumns } from "./rewards.service.ts";

/** VIP levels: the owner's ladder, the shopper's level, and the gifts it gives. */

/* VIP levels ------------------------------------------------------------------ */

/** VIP levels (with their gift) of the shops `where` selects, by threshold. */
async function tiersWhere(db: Db, where: SQL | undefined) {
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
    .where(where)
    .orderBy(asc(vipTiers.threshold));
}

export async function getVipTiers(db: Db, access: ShopAccess) {
  const tiers = await tiersWhere(db, eq(vipTiers.shopId, shopScope(access)));
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
 * Parrainage rewards of the shop's catalogue waiting to be claimed as gifts (ADR 0048): a released referral's
 * friend, or its sponsor when their side was given (within the month's cap), whose reward is still in the catalogue.
 */
async function referralGifts(db: Db, userId: string, shopIds: string[]) {
  if (shopIds.length === 0) return [];
  const rows = await db.execute<{ referral_id: string; shop_id: string; reward_id: string; title: string }>(sql`
    select f.id as referral_id, f.shop_id, x.reward_id, r.title
    from referrals f
    cross join lateral (select case when f.friend_id = ${userId} then f.friend_reward_id
      when f.sponsor_id = ${userId} and f.sponsor_rewarded then f.sponsor_reward_id end as reward_id) x
    join rewards r on r.id = x.reward_id and r.archived_at is null
    where f.status = 'released' and (f.friend_id = ${userId} or f.sponsor_id = ${userId})
      and f.shop_id in (${sql.join(
        shopIds.map((id) => sql`${id}`),
        sql`, `,
      )})
    order by f.released_at`);
  return rows.rows.map((r) => ({
    referralId: r.referral_id,
    shopId: r.shop_id,
    rewardId: r.reward_id,
    title: r.title,
  }));
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
      ...shopBadgeColumns,
      shopStatus: shops.status,
      mode: shops.cardMode,
      timezone: shops.timezone,
      birthdayRewardId: shops.birthdayRewardId,
    })
    .from(cards)
    .innerJoin(shops, eq(shops.id, cards.shopId))
    .where(eq(cards.userId, userId))
    .orderBy(sql`${cards.lastScanAt} desc nulls last`);
  if (myCards.length === 0) return { cards: [], hasBirthday: false };
  const shopIds = [...new Set(myCards.map((c) => c.shopId))];
  const birthdayIds = myCards.map((c) => c.birthdayRewardId).filter((x): x is string => Boolean(x));
  const [tiers, gifts, [profile], birthdayRewards, offers, referrals] = await Promise.all([
    tiersWhere(db, inArray(vipTiers.shopId, shopIds)),
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
          inArray(redemptions.source, ["vip", "birthday", "referral"]),
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
    runningOffers(db, userId, now),
    referralGifts(db, userId, shopIds),
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
        shop: shopBadge(card),
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
                offerId: null,
                referralId: null,
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
                  offerId: null,
                  referralId: null,
                  title: `${birthdayReward.title} — joyeux anniversaire !`,
                  redemptionId: birthdayClaim?.id ?? null,
                  status: birthdayClaim?.status ?? null,
                },
              ]
            : []),
          // An automation's reward offer (issue 27), until it expires.
          ...offers
            .filter((o) => o.cardId === card.id && o.kind === "reward" && card.shopStatus === "active")
            .map((o) => ({
              source: "offer" as const,
              tierId: null,
              offerId: o.id,
              referralId: null,
              title: `${o.rewardTitle} — offert jusqu'au ${formatDateTimeIn(o.until, card.timezone)}`,
              redemptionId: o.redemptionId,
              status: o.status,
            })),
          ...referrals
            .filter((g) => g.shopId === card.shopId && card.shopStatus === "active")
            .map((g) => {
              const c = claimed("referral", g.referralId);
              return {
                source: "referral" as const,
                tierId: null,
                offerId: null,
                referralId: g.referralId,
                title: `${g.title} — cadeau de parrainage`,
                redemptionId: c?.id ?? null,
                status: c?.status ?? null,
              };
            }),
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
  input: {
    cardId: string;
    source: "vip" | "birthday" | "referral";
    tierId?: string | null;
    referralId?: string | null;
  },
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
  if (input.source === "referral") {
    const gift = (await referralGifts(db, userId, [card.shopId])).find((g) => g.referralId === input.referralId);
    if (!gift) throw notEligible();
    return { rewardId: gift.rewardId, sourceRef: gift.referralId };
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
