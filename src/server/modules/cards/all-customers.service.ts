import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { toCsv } from "../../../domain/loyalty/csv.ts";
import type { Db } from "../../db/client.ts";

/**
 * /admin/liste-totale-clients (issue 16, item 5): the customers of every shop a person owns (one owner may have
 * several), and for the platform admin of the whole platform. One row per card: a person at a shop.
 */
export const ALL_CUSTOMER_SORTS = ["name", "shop", "balance", "visits", "lastVisit"] as const;

export const allCustomersQuerySchema = z.object({
  q: z.string().trim().max(100, "Recherche : 100 caractères au plus.").optional(),
  sort: z.enum(ALL_CUSTOMER_SORTS, { error: "Tri inconnu." }).default("lastVisit"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
export type AllCustomersQuery = z.output<typeof allCustomersQuerySchema>;

type Viewer = { id: string; isAdmin: boolean };

const ORDER: Record<(typeof ALL_CUSTOMER_SORTS)[number], ReturnType<typeof sql.raw>> = {
  name: sql.raw("lower(coalesce(p.last_name, '') || ' ' || coalesce(p.first_name, '') || u.email), c.id"),
  shop: sql.raw("lower(s.name), lower(coalesce(p.last_name, '')), c.id"),
  balance: sql.raw("c.balance desc, c.id"),
  visits: sql.raw("c.visits desc, c.id"),
  lastVisit: sql.raw("c.last_scan_at desc nulls last, c.id"),
};

type Row = {
  card_id: string;
  user_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string;
  shop_id: string;
  shop_name: string;
  balance: number;
  visits: number;
  last_scan_at: Date | string | null;
  total: number;
};

async function query(db: Db, viewer: Viewer, q: AllCustomersQuery, page: { limit: number; offset: number }) {
  if (!viewer.isAdmin) {
    const owned = await db.execute(sql`select 1 from member where user_id = ${viewer.id} and role = 'owner' limit 1`);
    if (owned.rows.length === 0) {
      throw new AppError("FORBIDDEN", { userMessage: "Cette page est réservée aux propriétaires de boutique." });
    }
  }
  const search = q.q ? `%${q.q.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const result = await db.execute<Row>(sql`
    select c.id as card_id, c.user_id, p.first_name, p.last_name, u.email, s.id as shop_id, s.name as shop_name,
           c.balance, c.visits, c.last_scan_at, count(*) over ()::int as total
    from cards c
    join shops s on s.id = c.shop_id
    join "user" u on u.id = c.user_id
    left join profiles p on p.id = c.user_id
    where (${viewer.isAdmin} or s.id in (select organization_id from member where user_id = ${viewer.id} and role = 'owner'))
      and (${search}::text is null
           or u.email ilike ${search} or p.first_name ilike ${search} or p.last_name ilike ${search}
           or s.name ilike ${search})
    order by ${ORDER[q.sort]}
    limit ${page.limit} offset ${page.offset}`);
  return result.rows;
}

export async function listAllCustomers(db: Db, viewer: Viewer, q: AllCustomersQuery) {
  const rows = await query(db, viewer, q, q);
  return {
    total: rows[0]?.total ?? 0,
    customers: rows.map((r) => ({
      cardId: r.card_id,
      userId: r.user_id,
      firstName: r.first_name,
      lastName: r.last_name,
      email: r.email,
      shopId: r.shop_id,
      shopName: r.shop_name,
      balance: r.balance,
      visits: r.visits,
      lastVisitAt: r.last_scan_at === null ? null : new Date(r.last_scan_at).toISOString(),
    })),
  };
}

export async function allCustomersCsv(db: Db, viewer: Viewer, q: AllCustomersQuery) {
  const rows = await query(db, viewer, q, { limit: 50_000, offset: 0 });
  return toCsv(
    ["Prénom", "Nom", "E-mail", "Boutique", "Solde", "Passages", "Dernière visite"],
    rows.map((r) => [
      r.first_name,
      r.last_name,
      r.email,
      r.shop_name,
      r.balance,
      r.visits,
      r.last_scan_at === null ? null : new Date(r.last_scan_at),
    ]),
  );
}
