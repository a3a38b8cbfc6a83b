import { eq, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, foldSearch } from "../../../domain/loyalty/shop-text.ts";
import type { Db } from "../../db/client.ts";
import { shops } from "../../db/schema/index.ts";
import { recordAudit } from "../../lib/audit.ts";

/** The platform admin's view of every shop: list, suspend, reactivate. */

export async function listAllShops(db: Db, q: { q?: string; status?: "active" | "suspended"; limit: number; offset: number }) {
  const term = q.q ? `%${foldSearch(q.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const result = await db.execute<{
    id: string;
    slug: string;
    name: string;
    city: string;
    status: "active" | "suspended";
    suspended_reason: string | null;
    suspended_at: Date | string | null;
    created_at: Date | string;
    owner_email: string | null;
    customers: number;
    scans_30d: number;
    total: number;
  }>(sql`
    select s.id, s.slug, s.name, s.city, s.status, s.suspended_reason, s.suspended_at, s.created_at,
           (select u.email from member m join "user" u on u.id = m.user_id where m.organization_id = s.id and m.role = 'owner' order by m.created_at limit 1) as owner_email,
           (select count(*)::int from cards c where c.shop_id = s.id) as customers,
           (select count(*)::int from scans x where x.shop_id = s.id and x.outcome = 'accepted' and x.created_at > now() - interval '30 days') as scans_30d,
           (count(*) over ())::int as total
    from shops s
    where (${q.status ?? null}::text is null or s.status = ${q.status ?? null}::text)
      and (${term}::text is null or translate(lower(s.name || ' ' || s.city || ' ' || s.slug), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO}) like ${term}::text)
    order by s.created_at desc, s.id
    limit ${q.limit} offset ${q.offset}`);
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    shops: result.rows.map((r) => ({
      id: r.id,
      slug: r.slug,
      name: r.name,
      city: r.city,
      status: r.status,
      suspendedReason: r.suspended_reason,
      suspendedAt: iso(r.suspended_at),
      createdAt: iso(r.created_at)!,
      ownerEmail: r.owner_email,
      customers: r.customers,
      scans30d: r.scans_30d,
    })),
    total: result.rows[0]?.total ?? 0,
  };
}

/** A suspended shop stays visible to its owner but every scan is refused (and recorded) until reactivated. */
export async function setShopStatus(db: Db, shopId: string, status: "active" | "suspended", reason: string | null, actor: { id: string; ip?: string } | null = null) {
  const [row] = await db
    .update(shops)
    .set({
      status,
      suspendedReason: status === "suspended" ? reason : null,
      suspendedAt: status === "suspended" ? sql`now()` : null,
      updatedAt: sql`now()`,
    })
    .where(eq(shops.id, shopId))
    .returning({ id: shops.id, status: shops.status, suspendedReason: shops.suspendedReason });
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  await recordAudit(db, { actorId: actor?.id ?? null, shopId, action: status === "suspended" ? "shop.suspend" : "shop.reactivate", target: shopId, details: reason ? { reason } : null, ip: actor?.ip });
  return row;
}
