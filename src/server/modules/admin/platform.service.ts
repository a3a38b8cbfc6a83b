import { eq, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, foldSearch } from "../../../domain/loyalty/shop-text.ts";
import type { Db } from "../../db/client.ts";
import { shops } from "../../db/schema/index.ts";
import { recordAudit } from "../../lib/audit.ts";
import { cappedTotal, LIST_COUNT_CAP } from "../../lib/list-page.ts";

/** The platform admin's view of every shop: list, suspend, reactivate. */

/**
 * The shops, newest first: the page's shops first, then each one's
 * owner, customers (an index-only count) and accepted scans of the last 30 local days (shop_daily_stats and deltas);
 * the total counted apart and capped as the back-office lists' (LIST_COUNT_CAP).
 */
export async function listAllShops(db: Db, q: { q?: string; status?: "active" | "suspended"; limit: number; offset: number }) {
  const term = q.q ? `%${foldSearch(q.q).replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`(${q.status ?? null}::text is null or s.status = ${q.status ?? null}::text)
      and (${term}::text is null or translate(lower(s.name || ' ' || s.city || ' ' || s.slug), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO}) like ${term}::text)`;
  const [result, count] = await Promise.all([
    db.execute<{
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
    }>(sql`
      with page as (
        select s.id, s.slug, s.name, s.city, s.status, s.suspended_reason, s.suspended_at, s.created_at, s.timezone
        from shops s
        where ${where}
        order by s.created_at desc, s.id
        limit ${q.limit} offset ${q.offset}
      )
      select page.id, page.slug, page.name, page.city, page.status, page.suspended_reason, page.suspended_at, page.created_at,
             (select u.email from member m join "user" u on u.id = m.user_id where m.organization_id = page.id and m.role = 'owner' order by m.created_at limit 1) as owner_email,
             (select count(*)::int from cards c where c.shop_id = page.id) as customers,
             (select coalesce(sum(d.scans), 0)::int from (
                select scans, day from shop_daily_stats where shop_id = page.id
                union all select scans, day from shop_daily_deltas where shop_id = page.id
              ) d where d.day > (now() at time zone page.timezone)::date - 30) as scans_30d
      from page
      order by page.created_at desc, page.id`),
    db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from shops s where ${where} limit ${LIST_COUNT_CAP + 1}) x`),
  ]);
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
    ...cappedTotal(Number(count.rows[0]?.n ?? 0)),
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
