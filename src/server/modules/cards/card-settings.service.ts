import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { formatAmount, formatMinutes, plural } from "../../../domain/format.ts";
import { adjustmentCap } from "../../../domain/loyalty/adjustments.ts";
import { type AmountRounding, amountRuleFr, type EarnBy } from "../../../domain/loyalty/amount.ts";
import type { DoublePointsPeriod } from "../../../domain/loyalty/double-points.ts";
import { randomSecret } from "../../../domain/loyalty/scan-code.ts";
import type { cardSettingsSchema, doublePointsSchema } from "../../../domain/schemas/shops.ts";
import type { Db } from "../../db/client.ts";
import { doublePointsPeriods, rewards } from "../../db/schema/index.ts";
import { refuseCappedInsert, type ShopAccess, scopedShop, shopScope, updateScopedShop } from "../../lib/shop-access.ts";
import { designOf, imageUrl } from "../../lib/shop-dto.ts";
import { forgetScanProfile } from "./scan.service.ts";

/** The card's rules (stamps or points, cooldown, daily cap, design, code key) and its double-points operations. */

/** "1 tampon par passage, carte de 10 tampons · un passage crédité toutes les 4 heures au plus · 1 passage crédité par jour au plus". */
export function rulesSummaryFr(s: {
  cardMode: "stamps" | "points";
  stampsGoal: number;
  pointsPerVisit: number;
  cooldownMinutes: number;
  dailyCap: number;
  earnBy: EarnBy;
  pointsPerEuro: number;
  amountRounding: AmountRounding;
}) {
  const perVisit =
    s.cardMode === "stamps"
      ? `1 tampon par passage, carte de ${s.stampsGoal} tampons`
      : s.earnBy === "amount"
        ? amountRuleFr(s.pointsPerEuro, s.amountRounding)
        : `${formatAmount("points", s.pointsPerVisit)} par passage`;
  // "par heure", not "toutes les 1 heure"; otherwise "toutes les 4 heures", "toutes les 2 h 30".
  const every =
    s.cooldownMinutes === 60
      ? "par heure"
      : s.cooldownMinutes === 1440
        ? "par jour"
        : `toutes les ${formatMinutes(s.cooldownMinutes)}`;
  const cooldown = s.cooldownMinutes === 0 ? null : `un passage crédité ${every} au plus`;
  const cap = `${plural(s.dailyCap, "passage crédité", "passages crédités")} par jour au plus`;
  return [perVisit, cooldown, cap].filter(Boolean).join(" · ");
}

export async function getCardSettings(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  // A card is only "ready" once it offers something (issue 25 row 10): the owner's screens read this count.
  const [offered] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(rewards)
    .where(and(eq(rewards.shopId, s.id), eq(rewards.isActive, true), sql`${rewards.archivedAt} is null`));
  return {
    mode: s.cardMode,
    stampsGoal: s.stampsGoal,
    pointsPerVisit: s.pointsPerVisit,
    cooldownMinutes: s.cooldownMinutes,
    dailyCap: s.dailyCap,
    allowStaticPoster: s.allowStaticPoster,
    adjustmentLimit: s.adjustmentLimit,
    /** The team's cap in effect (a visit's worth when no limit is set). */
    adjustmentCap: adjustmentCap(s),
    staffAdjustmentsPerDay: s.staffAdjustmentsPerDay,
    staffAdjustmentsLifetime: s.staffAdjustmentsLifetime,
    offlineGraceMinutes: s.offlineGraceMinutes,
    earnBy: s.earnBy,
    pointsPerEuro: s.pointsPerEuro,
    amountRounding: s.amountRounding,
    receiptWindowMinutes: s.receiptWindowMinutes,
    /** Whether a till holds a receipt key (the key itself: GET …/receipt-key, owner only). */
    hasReceiptKey: s.receiptSecret !== null,
    design: designOf(s.cardDesign),
    summary: rulesSummaryFr(s),
    /** Active rewards the card offers: 0 means customers collect with nothing to exchange yet. */
    rewardsOffered: offered?.count ?? 0,
    shop: { name: s.name, logoUrl: imageUrl(s.slug, "logo", s.hasLogo, s.updatedAt) },
  };
}

/** New rules apply to visits from now on; points already in the ledger never change. */
export async function updateCardSettings(db: Db, access: ShopAccess, input: z.output<typeof cardSettingsSchema>) {
  await updateScopedShop(db, access, {
    cardMode: input.mode,
    stampsGoal: input.stampsGoal,
    pointsPerVisit: input.pointsPerVisit,
    cooldownMinutes: input.cooldownMinutes,
    dailyCap: input.dailyCap,
    allowStaticPoster: input.allowStaticPoster,
    cardDesign: input.design,
    ...(input.adjustmentLimit === undefined ? {} : { adjustmentLimit: input.adjustmentLimit }),
    ...(input.staffAdjustmentsPerDay === undefined ? {} : { staffAdjustmentsPerDay: input.staffAdjustmentsPerDay }),
    ...(input.staffAdjustmentsLifetime === undefined
      ? {}
      : { staffAdjustmentsLifetime: input.staffAdjustmentsLifetime }),
    ...(input.offlineGraceMinutes === undefined ? {} : { offlineGraceMinutes: input.offlineGraceMinutes }),
    ...(input.earnBy === undefined ? {} : { earnBy: input.earnBy }),
    ...(input.pointsPerEuro === undefined ? {} : { pointsPerEuro: input.pointsPerEuro }),
    ...(input.amountRounding === undefined ? {} : { amountRounding: input.amountRounding }),
    ...(input.receiptWindowMinutes === undefined ? {} : { receiptWindowMinutes: input.receiptWindowMinutes }),
  });
  return getCardSettings(db, access);
}

/** A new code key: the counter code changes at once and every printed poster stops working. */
export async function renewCodeSecret(db: Db, access: ShopAccess) {
  const { scanUid } = await updateScopedShop(db, access, { codeSecret: randomSecret(32) });
  forgetScanProfile(db, scanUid);
  return { ok: true as const };
}

/** A double-points operation as a shopper sees it (the shop page). */
export function periodDto(p: DoublePointsPeriod) {
  return {
    id: p.id,
    label: p.label,
    startDate: p.startDate,
    endDate: p.endDate,
    weekdays: p.weekdays,
    startTime: p.startTime,
    endTime: p.endTime,
    multiplier: p.multiplier,
    isActive: p.isActive,
  };
}

/** …and as its owner sees it. */
const ownerPeriodDto = (p: typeof doublePointsPeriods.$inferSelect) => ({
  ...periodDto(p),
  createdAt: p.createdAt.toISOString(),
});

export async function listDoublePoints(db: Db, access: ShopAccess) {
  const rows = await db
    .select()
    .from(doublePointsPeriods)
    .where(eq(doublePointsPeriods.shopId, shopScope(access)))
    .orderBy(asc(doublePointsPeriods.createdAt));
  return rows.map(ownerPeriodDto);
}

const MAX_PERIODS = 50;

export async function createDoublePoints(db: Db, access: ShopAccess, input: z.output<typeof doublePointsSchema>) {
  const result = await db.execute<{ id: string }>(sql`
    insert into double_points_periods (shop_id, label, start_date, end_date, weekdays, start_time, end_time, multiplier, is_active)
    select s.id, ${input.label}, ${input.startDate}::date, ${input.endDate}::date,
           ${`{${input.weekdays.join(",")}}`}::integer[], ${input.startTime}, ${input.endTime}, ${input.multiplier}, ${input.isActive}
    from shops s
    where s.id = ${shopScope(access)}
      and (select count(*) from double_points_periods d where d.shop_id = s.id) < ${MAX_PERIODS}
    returning id`);
  const id = result.rows[0]?.id;
  if (!id) return refuseCappedInsert(db, access, `${MAX_PERIODS} opérations au plus : supprimez-en d'anciennes.`);
  const [row] = await db.select().from(doublePointsPeriods).where(eq(doublePointsPeriods.id, id));
  return ownerPeriodDto(row!);
}

export async function updateDoublePoints(
  db: Db,
  access: ShopAccess,
  periodId: string,
  input: z.output<typeof doublePointsSchema>,
) {
  const [row] = await db
    .update(doublePointsPeriods)
    .set({
      label: input.label,
      startDate: input.startDate,
      endDate: input.endDate,
      weekdays: input.weekdays,
      startTime: input.startTime,
      endTime: input.endTime,
      multiplier: input.multiplier,
      isActive: input.isActive,
      updatedAt: sql`now()`,
    })
    .where(and(eq(doublePointsPeriods.id, periodId), eq(doublePointsPeriods.shopId, shopScope(access))))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Opération introuvable." });
  return ownerPeriodDto(row);
}

export async function deleteDoublePoints(db: Db, access: ShopAccess, periodId: string) {
  const deleted = await db
    .delete(doublePointsPeriods)
    .where(and(eq(doublePointsPeriods.id, periodId), eq(doublePointsPeriods.shopId, shopScope(access))))
    .returning({ id: doublePointsPeriods.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", { userMessage: "Opération introuvable." });
}
