import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { prepaidAmountLabel } from "../../../domain/loyalty/prepaid.ts";
import type { prepaidProductSchema } from "../../../domain/schemas/prepaid.ts";
import type { Db } from "../../db/client.ts";
import { prepaidProducts } from "../../db/schema/index.ts";
import { type ShopAccess, scopedShop, shopScope } from "../../lib/shop-access.ts";

/** The owner's catalogue of prepaid products (ADR 0049); the counter reads the active ones to sell. */

type ProductRow = typeof prepaidProducts.$inferSelect;

function productDto(p: ProductRow) {
  return {
    id: p.id,
    kind: p.kind,
    title: p.title,
    quantity: p.quantity,
    quantityLabel: prepaidAmountLabel(p.kind, p.quantity),
    priceCents: p.priceCents,
    priceLabel: prepaidAmountLabel("euros", p.priceCents),
    validityMonths: p.validityMonths,
    isActive: p.isActive,
  };
}

export async function listPrepaidProducts(db: Db, access: ShopAccess, opts: { activeOnly: boolean }) {
  const rows = await db
    .select()
    .from(prepaidProducts)
    .where(
      and(
        eq(prepaidProducts.shopId, shopScope(access)),
        opts.activeOnly ? eq(prepaidProducts.isActive, true) : undefined,
      ),
    )
    .orderBy(asc(prepaidProducts.createdAt), asc(prepaidProducts.id));
  return rows.map(productDto);
}

const PREPAID_PRODUCTS_MAX = 50;

export async function createPrepaidProduct(db: Db, access: ShopAccess, input: z.output<typeof prepaidProductSchema>) {
  const existing = await listPrepaidProducts(db, access, { activeOnly: false });
  if (existing.length >= PREPAID_PRODUCTS_MAX)
    throw new AppError("CONFLICT", { userMessage: `Au plus ${PREPAID_PRODUCTS_MAX} produits prépayés par boutique.` });
  const shop = await scopedShop(db, access);
  const [row] = await db
    .insert(prepaidProducts)
    .values({ shopId: shop.id, ...input })
    .returning();
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return productDto(row);
}

export async function setPrepaidProductActive(db: Db, access: ShopAccess, id: string, isActive: boolean) {
  const [row] = await db
    .update(prepaidProducts)
    .set({ isActive })
    .where(and(eq(prepaidProducts.id, id), eq(prepaidProducts.shopId, shopScope(access))))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Produit introuvable." });
  return productDto(row);
}
