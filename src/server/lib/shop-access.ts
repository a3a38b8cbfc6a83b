import { eq, getTableColumns, type SQL, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { z } from "zod";
import { AppError } from "../../domain/errors.ts";
import type { Db } from "../db/client.ts";
import { shops } from "../db/schema/index.ts";
import type { AppEnv } from "./context.ts";
import { fieldErrors } from "./validate.ts";

type ShopRole = "owner" | "admin" | "member";
type AccessLevel = "staff" | "owner";

/** Who is acting on which shop, and as what. */
export type ShopAccess = {
  shopId: string;
  userId: string;
  /** "platform": the platform admin, not a member of the shop. */
  role: ShopRole | "platform";
  level: AccessLevel;
};

const OWNER_ROLES: readonly ShopRole[] = ["owner", "admin"];

/** The context of a route under /api/backoffice/shops/:shopId: who acts on the shop, as what. */
export type ShopEnv = { Variables: AppEnv["Variables"] & { access: ShopAccess } };

/** `{ shopId }` of a path: the same check wherever a shop id comes in. */
export const shopIdSchema = z.object({
  shopId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "Boutique introuvable."),
});

/** The shop id of the path, checked as `validate("param", …)` would (400 naming the field). */
function shopIdOf(c: Context<ShopEnv>): string {
  const parsed = shopIdSchema.safeParse({ shopId: c.req.param("shopId") });
  if (parsed.success) return parsed.data.shopId;
  const fields = fieldErrors(parsed.error);
  throw new AppError("VALIDATION", { message: "invalid param: shopId", userMessage: Object.values(fields)[0], fields });
}

/**
 * The back-office guard, once for every route under /shops/:shopId. A bad id → 400.
 * Signed out → 401. A member of this shop → allowed (as staff; `ownerOnly` narrows).
 * Not a member of this shop: a member of other shops gets 404 (another shop does not
 * exist for them), anyone else 403 (a shopper has no back-office). The platform admin
 * may act on any shop. Every query then scopes by `shopScope(access)` again.
 */
export const shopAccess = createMiddleware<ShopEnv>(async (c, next) => {
  const shopId = shopIdOf(c);
  const user = c.get("user");
  if (!user) throw new AppError("UNAUTHENTICATED");
  const result = await c
    .get("deps")
    .db.execute<{ role: ShopRole | null; member_elsewhere: boolean; shop_exists: boolean }>(sql`
      select
        (select m.role from member m where m.organization_id = ${shopId} and m.user_id = ${user.id} limit 1) as role,
        exists (select 1 from member m where m.user_id = ${user.id}) as member_elsewhere,
        exists (select 1 from shops s where s.id = ${shopId}) as shop_exists`);
  const row = result.rows[0];
  if (user.role === "admin") {
    if (!row?.shop_exists) throw shopNotFound();
    c.set("access", { shopId, userId: user.id, role: "platform", level: "staff" });
  } else if (row?.role && row.shop_exists) {
    c.set("access", { shopId, userId: user.id, role: row.role, level: "staff" });
  } else if (row?.member_elsewhere) {
    throw shopNotFound();
  } else {
    throw new AppError("FORBIDDEN", {
      message: "not a shop member",
      userMessage: "Cet espace est réservé aux commerçants et à leur équipe.",
    });
  }
  await next();
});

/** An owner route (owner, shop admin or platform admin): staff get 403. Placed first on the route. */
export const ownerOnly = createMiddleware<ShopEnv>(async (c, next) => {
  const access = c.get("access");
  if (access.role !== "platform" && !OWNER_ROLES.includes(access.role)) {
    throw new AppError("FORBIDDEN", {
      message: "staff on an owner route",
      userMessage: "Cette page est réservée aux responsables de la boutique.",
    });
  }
  c.set("access", { ...access, level: "owner" });
  await next();
});

const shopNotFound = () =>
  new AppError("NOT_FOUND", { message: "shop not accessible", userMessage: "Boutique introuvable." });

/**
 * The shop the access reaches, or "not found". Its images (up to 1 MB of data URLs) stay in the table — `hasLogo` and
 * `hasCover` say whether there are any; the page editor reads them itself.
 */
export async function scopedShop(db: Db, access: ShopAccess) {
  const { logo, cover, walletLogo: _w, ...columns } = getTableColumns(shops);
  const [shop] = await db
    .select({ ...columns, hasLogo: sql<boolean>`${logo} is not null`, hasCover: sql<boolean>`${cover} is not null` })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

/**
 * A capped insert (`insert … select … from shops s where s.id = shopScope(access) and (count) < cap`) made no row:
 * "not found" when the shop is out of reach, else the cap's conflict with its French message.
 */
export async function refuseCappedInsert(db: Db, access: ShopAccess, capMessage: string): Promise<never> {
  await scopedShop(db, access);
  throw new AppError("CONFLICT", { userMessage: capMessage });
}

/** Updates the shop the access reaches (its `updatedAt` too) and returns its scan uid, else "not found". */
export async function updateScopedShop(db: Db, access: ShopAccess, values: PgUpdateSetSource<typeof shops>) {
  const [row] = await db
    .update(shops)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(shops.id, shopScope(access)))
    .returning({ scanUid: shops.scanUid, receiptWindowMinutes: shops.receiptWindowMinutes });
  if (!row) throw shopNotFound();
  return row;
}

/**
 * The shop id as a subquery that yields it only while the user still holds the
 * role: `where x.shop_id = ${shopScope(access)}` matches nothing otherwise.
 */
export function shopScope(access: ShopAccess): SQL {
  if (access.role === "platform") return sql`${access.shopId}::text`;
  const roles = access.level === "owner" ? OWNER_ROLES : (["owner", "admin", "member"] as const);
  return sql`(select m.organization_id from member m where m.organization_id = ${access.shopId} and m.user_id = ${access.userId}
    and m.role in (${sql.join(
      roles.map((r) => sql`${r}`),
      sql`, `,
    )}) limit 1)`;
}
