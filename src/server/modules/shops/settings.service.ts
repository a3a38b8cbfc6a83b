import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import type { shopHoursSchema, shopLegalSchema, shopPageSchema } from "../../../domain/schemas/shops.ts";
import type { Db } from "../../db/client.ts";
import { organization, type ShopLegal, shops } from "../../db/schema/index.ts";
import { forgetScanProfile } from "../cards/scan.service.ts";
import { designOf, imageUrl } from "../../lib/shop-dto.ts";
import { type ShopAccess, scopedShop, updateScopedShop } from "../../lib/shop-access.ts";

/** The owner's settings pages: each read and write is scoped by `shopScope`. */

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
    logoUrl: imageUrl(shop.slug, "logo", shop.hasLogo, shop.updatedAt),
    design: designOf(shop.cardDesign),
    mode: shop.cardMode,
    allowStaticPoster: shop.allowStaticPoster,
  };
}

export async function getShopPageContent(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  // The one page that edits the images reads them (scopedShop leaves them in the table).
  const [images] = await db.select({ logo: shops.logo, cover: shops.cover }).from(shops).where(eq(shops.id, s.id));
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
    logo: images?.logo ?? null,
    cover: images?.cover ?? null,
    links: s.links,
    slug: s.slug,
  };
}

type ShopPlaceInput = {
  address: string;
  city: string;
  postalCode: string;
  phone: string;
  lat?: number | null;
  lng?: number | null;
};

/** Where the shop is and how to call it, as the registration and the shop page form both write it. */
export function shopPlaceFields(input: ShopPlaceInput) {
  return {
    address: input.address,
    city: input.city,
    postalCode: input.postalCode,
    phone: input.phone,
    lat: input.lat ?? null,
    lng: input.lng ?? null,
  };
}

export async function updateShopPageContent(db: Db, access: ShopAccess, input: z.output<typeof shopPageSchema>) {
  await db.transaction(async (tx) => {
    await updateScopedShop(tx as unknown as Db, access, {
      name: input.name,
      category: input.category,
      description: input.description,
      ...shopPlaceFields(input),
      logo: input.logo,
      // The wallet's PNG follows the logo: the one sent, else the one kept while the logo is the same, else none.
      walletLogo:
        input.walletLogo !== undefined && input.logo !== null
          ? input.walletLogo
          : sql`case when ${shops.logo} is not distinct from ${input.logo} then ${shops.walletLogo} end`,
      cover: input.cover,
      links: input.links,
    });
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
  await updateScopedShop(db, access, { siret, legal });
  return getShopLegal(db, access);
}

export async function getShopHours(db: Db, access: ShopAccess) {
  const s = await scopedShop(db, access);
  return { weekly: s.weeklyHours, closures: s.closures, timezone: s.timezone };
}

export async function updateShopHours(db: Db, access: ShopAccess, input: z.output<typeof shopHoursSchema>) {
  const closures = [...input.closures].sort((a, b) => a.startDate.localeCompare(b.startDate));
  const { scanUid } = await updateScopedShop(db, access, { weeklyHours: input.weekly, closures });
  forgetScanProfile(db, scanUid);
  return getShopHours(db, access);
}
