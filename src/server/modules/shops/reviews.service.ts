import { and, desc, eq, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import type { reviewSchema } from "../../../domain/schemas/shops.ts";
import type { z } from "zod";
import type { Db } from "../../db/client.ts";
import { profiles, shopReviews, shops } from "../../db/schema/index.ts";

/** Reviews of a shop: one per shopper, listed on its page. */

async function shopIdBySlug(db: Db, slug: string): Promise<string> {
  const [shop] = await db.select({ id: shops.id }).from(shops).where(eq(shops.slug, slug)).limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Cette boutique n'existe pas ou plus." });
  return shop.id;
}

/** Public reviews: first name and initial only. */
export async function listReviews(db: Db, slug: string, page: { limit: number; offset: number }) {
  const shopId = await shopIdBySlug(db, slug);
  const rows = await db
    .select({
      id: shopReviews.id,
      rating: shopReviews.rating,
      comment: shopReviews.comment,
      updatedAt: shopReviews.updatedAt,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
    })
    .from(shopReviews)
    .leftJoin(profiles, eq(profiles.id, shopReviews.userId))
    .where(eq(shopReviews.shopId, shopId))
    .orderBy(desc(shopReviews.updatedAt), desc(shopReviews.id))
    .limit(page.limit + 1)
    .offset(page.offset);
  return {
    reviews: rows.slice(0, page.limit).map((r) => ({
      id: r.id,
      rating: r.rating,
      comment: r.comment,
      updatedAt: r.updatedAt.toISOString(),
      author: r.firstName ? `${r.firstName}${r.lastName ? ` ${r.lastName[0]}.` : ""}` : "Client",
    })),
    hasMore: rows.length > page.limit,
  };
}

/**
 * /review: one review per shopper per shop, editable, only by a customer (a card
 * with at least one credited visit). Nothing is ever credited for a review.
 */
export async function saveReview(db: Db, userId: string, slug: string, input: z.output<typeof reviewSchema>) {
  const result = await db.execute<{ id: string; created: boolean }>(sql`
    insert into shop_reviews (shop_id, user_id, rating, comment)
    select s.id, ${userId}, ${input.rating}, ${input.comment}
    from shops s join cards c on c.shop_id = s.id and c.user_id = ${userId} and c.visits > 0
    where s.slug = ${slug}
    on conflict (shop_id, user_id) do update set rating = excluded.rating, comment = excluded.comment, updated_at = now()
    returning id, (xmax = 0) as created`);
  const row = result.rows[0];
  if (!row) {
    await shopIdBySlug(db, slug);
    throw new AppError("FORBIDDEN", {
      message: "review by non-customer",
      userMessage: "Seuls les clients de cette boutique peuvent donner leur avis : faites créditer un premier passage.",
    });
  }
  return { id: row.id, created: Boolean(row.created) };
}

export async function deleteReview(db: Db, userId: string, slug: string) {
  const shopId = await shopIdBySlug(db, slug);
  const deleted = await db
    .delete(shopReviews)
    .where(and(eq(shopReviews.shopId, shopId), eq(shopReviews.userId, userId)))
    .returning({ id: shopReviews.id });
  if (deleted.length === 0)
    throw new AppError("NOT_FOUND", { userMessage: "Vous n'avez pas donné d'avis sur cette boutique." });
}

/** The shops a person has joined (owner or staff), for a shop switcher. */
