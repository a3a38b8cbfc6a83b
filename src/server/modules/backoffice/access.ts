import { type SQL, sql } from "drizzle-orm";
import type { Context } from "hono";
import { AppError } from "../../../domain/errors.ts";
import type { Db } from "../../db/client.ts";
import { type AppEnv, currentUser } from "../../lib/context.ts";

export type ShopRole = "owner" | "admin" | "member";
export type AccessLevel = "staff" | "owner";

/** Who is acting on which shop, and as what. */
export type ShopAccess = {
  shopId: string;
  userId: string;
  /** "platform": the platform admin, not a member of the shop. */
  role: ShopRole | "platform";
  level: AccessLevel;
};

const OWNER_ROLES: readonly ShopRole[] = ["owner", "admin"];

/**
 * The back-office guard. Signed out → 401. A member of this shop with the role
 * needed → allowed; with a lesser role → 403. Not a member of this shop: a member
 * of other shops gets 404 (another shop does not exist for them), anyone else 403
 * (a shopper has no back-office). The platform admin may act on any shop.
 * Every query then scopes by `shopScope(access)` again.
 */
export async function requireShopAccess(c: Context<AppEnv>, shopId: string, level: AccessLevel): Promise<ShopAccess> {
  const user = currentUser(c);
  const db = c.get("deps").db;
  const result = await db.execute<{ role: ShopRole | null; member_elsewhere: boolean; shop_exists: boolean }>(sql`
    select
      (select m.role from member m where m.organization_id = ${shopId} and m.user_id = ${user.id} limit 1) as role,
      exists (select 1 from member m where m.user_id = ${user.id}) as member_elsewhere,
      exists (select 1 from shops s where s.id = ${shopId}) as shop_exists`);
  const row = result.rows[0];
  const notFound = () => new AppError("NOT_FOUND", { message: "shop not accessible", userMessage: "Boutique introuvable." });
  if (user.role === "admin") {
    if (!row?.shop_exists) throw notFound();
    return { shopId, userId: user.id, role: "platform", level };
  }
  if (row?.role && row.shop_exists) {
    if (level === "owner" && !OWNER_ROLES.includes(row.role)) {
      throw new AppError("FORBIDDEN", {
        message: "staff on an owner route",
        userMessage: "Cette page est réservée aux responsables de la boutique.",
      });
    }
    return { shopId, userId: user.id, role: row.role, level };
  }
  if (row?.member_elsewhere) throw notFound();
  throw new AppError("FORBIDDEN", { message: "not a shop member", userMessage: "Cet espace est réservé aux commerçants et à leur équipe." });
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

export type ScopedDb = { db: Db; access: ShopAccess };
