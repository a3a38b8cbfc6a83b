import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { randomSecret } from "../../../domain/loyalty/scan-code.ts";
import type {
  cardSettingsSchema,
  doublePointsSchema,
  shopHoursSchema,
  shopLegalSchema,
  shopPageSchema,
} from "../../../domain/schemas/shops.ts";
import type { Db } from "../../db/client.ts";
import { doublePointsPeriods, organization, type ShopLegal, shops } from "../../db/schema/index.ts";
import { forgetScanProfile } from "../cards/scan.service.ts";
import { designOf, imageUrl } from "../shops/shop-dto.ts";
import { rulesSummaryFr } from "../shops/shops.service.ts";
import { type ShopAccess, shopScope } from "./access.ts";

/** The owner's settings pages: each read and write is scoped by `shopScope`. */

const notFound = () => new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });

async function scopedShop(db: Db, access: ShopAccess) {
  const [shop] = await db.select().from(shops).where(eq(shops.id, shopScope(access))).limit(1);
  if (!shop) throw notFound();
  return shop;
}

/** Overview of the shop for the back-office shell (name, status, codes, role). */
export async function getShopOverview(db: Db, access: ShopAccess) {
  const shop = await scopedShop(db, access);
  return {
    id: shop.id,
    slug: shop.slug,
    name: shop.name,
    status: shop.status,
    suspendedReason: shop.suspendedReason,
    role: access.role,
    logoUrl: imageUrl(shop.slug, "logo", Boolean(shop.logo), shop.updatedAt),
    design: designOf(shop.cardDesign),
    mode: shop.cardMode,
    allowStaticPoster: shop.allowStaticPoster,
  };
}

export async function getShopPageContent(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  return {
    name: s.name,
    category: s.category,
    description: s.description,
    address: s.address,
    city: s.city,
    postalCode: s.postalCode,
    phone: s.phone,
    lat: s.lat,
    lng: s.lng,
    logo: s.logo,
    cover: s.cover,
    links: s.links,
    slug: s.slug,
  };
}

export async function updateShopPageContent(db: Db, access: ShopAccess, input: z.output<typeof shopPageSchema>) {
  await db.transaction(async (tx) => {
    const updated = await tx
      .update(shops)
      .set({
        name: input.name,
        category: input.category,
        description: input.description,
        address: input.address,
        city: input.city,
        postalCode: input.postalCode,
        phone: input.phone,
        lat: input.lat ?? null,
        lng: input.lng ?? null,
        logo: input.logo,
        cover: input.cover,
        links: input.links,
        updatedAt: sql`now()`,
      })
      .where(eq(shops.id, shopScope(access)))
      .returning({ id: shops.id });
    if (updated.length === 0) throw notFound();
    // The organization (better-auth, invitation e-mails) carries the same name and logo flag.
    await tx.update(organization).set({ name: input.name }).where(eq(organization.id, access.shopId));
  });
  return getShopPageContent(db, access);
}

export async function getShopLegal(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  const legal: Partial<ShopLegal> = s.legal ?? {};
  return {
    legalName: legal.legalName ?? "",
    legalForm: legal.legalForm ?? null,
    siret: s.siret,
    vatNumber: legal.vatNumber ?? null,
    shareCapital: legal.shareCapital ?? null,
    rcs: legal.rcs ?? null,
    legalAddress: legal.legalAddress ?? null,
    director: legal.director ?? null,
    contactEmail: legal.contactEmail ?? null,
  };
}

export async function updateShopLegal(db: Db, access: ShopAccess, input: z.output<typeof shopLegalSchema>) {
  const { siret, ...legal } = input;
  const updated = await db
    .update(shops)
    .set({ siret, legal, updatedAt: sql`now()` })
    .where(eq(shops.id, shopScope(access)))
    .returning({ id: shops.id });
  if (updated.length === 0) throw notFound();
  return getShopLegal(db, access);
}

export async function getShopHours(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  return { weekly: s.weeklyHours, closures: s.closures, timezone: s.timezone };
}

export async function updateShopHours(db: Db, access: ShopAccess, input: z.output<typeof shopHoursSchema>) {
  const closures = [...input.closures].sort((a, b) => a.startDate.localeCompare(b.startDate));
  const updated = await db
    .update(shops)
    .set({ weeklyHours: input.weekly, closures, updatedAt: sql`now()` })
    .where(eq(shops.id, shopScope(access)))
    .returning({ scanUid: shops.scanUid });
  if (!updated[0]) throw notFound();
  forgetScanProfile(db, updated[0].scanUid);
  return getShopHours(db, access);
}

export async function getCardSettings(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  return {
    mode: s.cardMode,
    stampsGoal: s.stampsGoal,
    pointsPerVisit: s.pointsPerVisit,
    cooldownMinutes: s.cooldownMinutes,
    dailyCap: s.dailyCap,
    allowStaticPoster: s.allowStaticPoster,
    design: designOf(s.cardDesign),
    summary: rulesSummaryFr(s),
    shop: { name: s.name, logoUrl: imageUrl(s.slug, "logo", Boolean(s.logo), s.updatedAt) },
  };
}

/** New rules apply to visits from now on; points already in the ledger never change. */
export async function updateCardSettings(db: Db, access: ShopAccess, input: z.output<typeof cardSettingsSchema>) {
  const updated = await db
    .update(shops)
    .set({
      cardMode: input.mode,
      stampsGoal: input.stampsGoal,
      pointsPerVisit: input.pointsPerVisit,
      cooldownMinutes: input.cooldownMinutes,
      dailyCap: input.dailyCap,
      allowStaticPoster: input.allowStaticPoster,
      cardDesign: input.design,
      updatedAt: sql`now()`,
    })
    .where(eq(shops.id, shopScope(access)))
    .returning({ id: shops.id });
  if (updated.length === 0) throw notFound();
  return getCardSettings(db, access);
}

/** A new code key: the counter code changes at once and every printed poster stops working. */
export async function renewCodeSecret(db: Db, access: ShopAccess) {
  const updated = await db
    .update(shops)
    .set({ codeSecret: randomSecret(32), updatedAt: sql`now()` })
    .where(eq(shops.id, shopScope(access)))
    .returning({ scanUid: shops.scanUid });
  if (!updated[0]) throw notFound();
  forgetScanProfile(db, updated[0].scanUid);
  return { ok: true as const };
}

function periodDto(p: typeof doublePointsPeriods.$inferSelect) {
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
    createdAt: p.createdAt.toISOString(),
  };
}

export async function listDoublePoints(db: Db, access: ShopAccess) {
  const rows = await db
    .select()
    .from(doublePointsPeriods)
    .where(eq(doublePointsPeriods.shopId, shopScope(access)))
    .orderBy(asc(doublePointsPeriods.createdAt));
  return rows.map(periodDto);
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
  if (!id) {
    await scopedShop(db, access);
    throw new AppError("CONFLICT", { userMessage: `${MAX_PERIODS} opérations au plus : supprimez-en d'anciennes.` });
  }
  const [row] = await db.select().from(doublePointsPeriods).where(eq(doublePointsPeriods.id, id));
  return periodDto(row!);
}

export async function updateDoublePoints(db: Db, access: ShopAccess, periodId: string, input: z.output<typeof doublePointsSchema>) {
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
  return periodDto(row);
}

export async function deleteDoublePoints(db: Db, access: ShopAccess, periodId: string) {
  const deleted = await db
    .delete(doublePointsPeriods)
    .where(and(eq(doublePointsPeriods.id, periodId), eq(doublePointsPeriods.shopId, shopScope(access))))
    .returning({ id: doublePointsPeriods.id });
  if (deleted.length === 0) throw new AppError("NOT_FOUND", { userMessage: "Opération introuvable." });
}
