import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, foldSearch } from "../../../domain/loyalty/shop-text.ts";
import type { Db } from "../../db/client.ts";
import { CSV_BATCH, cappedTotal, csvStream, LIST_COUNT_CAP, type ListKeyset } from "../../lib/list-page.ts";

/**
 * /admin/liste-totale-clients (issue 16, item 5): the customers of every shop a person owns (one owner may have
 * several), and for the platform admin of the whole platform. One row per card: a person at a shop.
 */
const ALL_CUSTOMER_SORTS = ["name", "shop", "balance", "visits", "lastVisit"] as const;

export const allCustomersQuerySchema = z.object({
  q: z.string().trim().max(100, "Recherche : 100 caractères au plus.").optional(),
  sort: z.enum(ALL_CUSTOMER_SORTS, { error: "Tri inconnu." }).default("lastVisit"),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});
type AllCustomersQuery = z.output<typeof allCustomersQuerySchema>;

type Viewer = { id: string; isAdmin: boolean };

/**
 * Each sort as one key of the card (and its shop) and a direction, so that a page is read in the order of an index
 * (cards_shop_*_idx: one shop's cards, read forwards or backwards) and an export can continue from a row (keyset).
 * A customer never seen sorts last (-infinity); ties go by card id.
 */
const SORTS = {
  name: { key: sql`c.sort_name`, type: sql`text`, desc: false },
  shop: { key: sql`(select lower(s.name) from shops s where s.id = c.shop_id)`, type: sql`text`, desc: false },
  balance: { key: sql`c.balance`, type: sql`integer`, desc: true },
  visits: { key: sql`c.visits`, type: sql`integer`, desc: true },
  lastVisit: { key: sql`coalesce(c.last_scan_at, '-infinity'::timestamptz)`, type: sql`timestamptz`, desc: true },
} as const;

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
  k: string;
};

/** The shops whose customers the viewer sees: null for the platform admin (all), else the shops they own. */
async function scopeOf(db: Db, viewer: Viewer): Promise<string[] | null> {
  if (viewer.isAdmin) return null;
  const owned = await db.execute<{ id: string }>(
    sql`select organization_id as id from member where user_id = ${viewer.id} and role = 'owner'`,
  );
  if (owned.rows.length === 0) {
    throw new AppError("FORBIDDEN", { userMessage: "Cette page est réservée aux propriétaires de boutique." });
  }
  return owned.rows.map((r) => r.id);
}

function filter(shopIds: string[] | null, q: AllCustomersQuery) {
  const term = q.q ? `%${foldSearch(q.q).replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const shops = shopIds
    ? sql`and c.shop_id in (${sql.join(
        shopIds.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  // cards.search_text: the folded "first last e-mail" (functions/customer-text.sql); or the shop's name.
  const search = term
    ? sql`and (c.search_text like ${term}::text or exists (select 1 from shops s where s.id = c.shop_id
          and translate(lower(s.name), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO}) like ${term}::text))`
    : sql``;
  return sql`c.user_id is not null ${shops} ${search}`;
}

/** One page: the page's cards first (in the sort's index order), then their people and shops. */
async function query(db: Db, shopIds: string[] | null, q: AllCustomersQuery, page: { limit: number; offset: number; after?: ListKeyset }) {
  const sort = SORTS[q.sort];
  const dir = sort.desc ? sql`desc` : sql`asc`;
  const after = page.after
    ? sort.desc
      ? sql`and (${sort.key}, c.id) < (${page.after.k}::${sort.type}, ${page.after.id}::text)`
      : sql`and (${sort.key}, c.id) > (${page.after.k}::${sort.type}, ${page.after.id}::text)`
    : sql``;
  const result = await db.execute<Row>(sql`
    with page as (
      select c.id, c.user_id, c.shop_id, c.balance, c.visits, c.last_scan_at, ${sort.key} as k
      from cards c
      where ${filter(shopIds, q)} ${after}
      order by ${sort.key} ${dir}, c.id ${dir}
      limit ${page.limit} offset ${page.after ? 0 : page.offset}
    )
    select page.id as card_id, page.user_id, p.first_name, p.last_name, u.email, s.id as shop_id, s.name as shop_name,
           page.balance, page.visits, page.last_scan_at, page.k::text as k
    from page
    join shops s on s.id = page.shop_id
    join "user" u on u.id = page.user_id
    left join profiles p on p.id = page.user_id
    order by page.k ${dir}, page.id ${dir}`);
  return result.rows;
}

export async function listAllCustomers(db: Db, viewer: Viewer, q: AllCustomersQuery) {
  const shopIds = await scopeOf(db, viewer);
  const [rows, count] = await Promise.all([
    query(db, shopIds, q, q),
    db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from cards c where ${filter(shopIds, q)} limit ${LIST_COUNT_CAP + 1}) x`),
  ]);
  return {
    ...cappedTotal(Number(count.rows[0]?.n ?? 0)),
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

/** Every matching customer (no cap), streamed batch after batch in the list's order. */
export async function allCustomersCsv(db: Db, viewer: Viewer, q: AllCustomersQuery) {
  const shopIds = await scopeOf(db, viewer);
  return csvStream(
    ["Prénom", "Nom", "E-mail", "Boutique", "Solde", "Passages", "Dernière visite"],
    async (after) => {
      const rows = await query(db, shopIds, q, { limit: CSV_BATCH, offset: 0, after });
      const last = rows.at(-1);
      return { rows, last: last ? { k: last.k, id: last.card_id } : null };
    },
    (r) => [
      r.first_name,
      r.last_name,
      r.email,
      r.shop_name,
      r.balance,
      r.visits,
      r.last_scan_at === null ? null : new Date(r.last_scan_at),
    ],
  );
}
