import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { csvDateTime } from "../../../domain/loyalty/csv.ts";
import { LEDGER_KIND_LABELS_FR } from "../../../domain/loyalty/ledger.ts";
import { foldSearch } from "../../../domain/loyalty/shop-text.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import type { customersQuerySchema } from "../../../domain/schemas/cards.ts";
import type { Db } from "../../db/client.ts";
import { cards, ledgerEntries, shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { recordAudit } from "../../lib/audit.ts";
import { CSV_BATCH, cappedTotal, csvStream, LIST_COUNT_CAP, type ListKeyset } from "../../lib/list-page.ts";

/** The owner's lists and figures: customers, scans, the dashboard; each scoped by `shopScope`. */

export async function shopTimezone(
  db: Db,
  access: ShopAccess,
): Promise<{ timezone: string; name: string; slug: string }> {
  const [shop] = await db
    .select({ timezone: shops.timezone, name: shops.name, slug: shops.slug })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type CustomerRow = {
  card_id: string;
  user_id: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  balance: number;
  lifetime: number;
  visits: number;
  last_scan_at: Date | string | null;
  created_at: Date | string;
  /** The sort key as text, for the next batch (keyset). */
  k: string;
};

/**
 * Each sort as a non-null key of cards (a customer never seen sorts as -infinity: last when newest first, first
 * when oldest first, as `nulls last` / `nulls first` did) and its SQL type for the keyset. Indexes in migrations
 * 0012 and 0017 follow these keys: (shop_id, key, id), read forwards or backwards.
 */
const SORTS = {
  lastVisit: { key: sql`coalesce(c.last_scan_at, '-infinity'::timestamptz)`, type: sql`timestamptz` },
  points: { key: sql`c.balance`, type: sql`integer` },
  lifetime: { key: sql`c.lifetime`, type: sql`integer` },
  visits: { key: sql`c.visits`, type: sql`integer` },
  // cards.sort_name is lower(last name || ' ' || first name), kept by triggers (functions/customer-text.sql).
  name: { key: sql`c.sort_name`, type: sql`text` },
  since: { key: sql`c.created_at`, type: sql`timestamptz` },
} as const;

type CustomersQuery = z.output<typeof customersQuerySchema>;
type Keyset = ListKeyset;

function customerFilter(shopId: string, q: CustomersQuery) {
  const term = q.q ? `%${likeEscape(foldSearch(q.q))}%` : null;
  // cards.search_text is the folded "first last e-mail", kept by triggers (functions/customer-text.sql).
  const search = term ? sql`and c.search_text like ${term}::text` : sql``;
  return sql`c.shop_id = ${shopId} ${search}`;
}

/**
 * One page of customers: the page's cards first (by the sort's index), then their names and e-mails.
 * `after` continues from a row (keyset, for exports); otherwise `offset`.
 */
async function queryCustomers(
  db: Db,
  shopId: string,
  q: CustomersQuery,
  page: { limit: number; offset: number; after?: Keyset },
) {
  const sort = SORTS[q.sort];
  const desc = q.order !== "asc";
  const dir = desc ? sql`desc` : sql`asc`;
  const where = customerFilter(shopId, q);
  const after = page.after
    ? desc
      ? sql`and (${sort.key}, c.id) < (${page.after.k}::${sort.type}, ${page.after.id}::text)`
      : sql`and (${sort.key}, c.id) > (${page.after.k}::${sort.type}, ${page.after.id}::text)`
    : sql``;
  const result = await db.execute<CustomerRow>(sql`
    with page as (
      select c.id, c.user_id, c.balance, c.lifetime, c.visits, c.last_scan_at, c.created_at, ${sort.key} as k
      from cards c
      where ${where} ${after}
      order by ${sort.key} ${dir}, c.id ${dir}
      limit ${page.limit} offset ${page.after ? 0 : page.offset}
    )
    select page.id as card_id, page.user_id, p.first_name, p.last_name, u.email, page.balance, page.lifetime,
           page.visits, page.last_scan_at, page.created_at, page.k::text as k
    from page left join "user" u on u.id = page.user_id left join profiles p on p.id = page.user_id
    order by page.k ${dir}, page.id ${dir}`);
  return result.rows;
}

/**
 * A search reads the shop's cards once (a substring of the folded name and e-mail cannot be indexed by a btree), one
 * table without joins (cards.search_text): the matches are made once, then the page and the capped count both read them.
 */
async function searchCustomers(db: Db, shopId: string, q: CustomersQuery) {
  const sort = SORTS[q.sort];
  const dir = q.order !== "asc" ? sql`desc` : sql`asc`;
  const where = customerFilter(shopId, q);
  const result = await db.execute<CustomerRow & { n: number }>(sql`
    with m as materialized (
      select c.id, c.user_id, c.balance, c.lifetime, c.visits, c.last_scan_at, c.created_at, ${sort.key} as k
      from cards c
      where ${where}
    ), page as (
      select * from m order by k ${dir}, id ${dir} limit ${q.limit} offset ${q.offset}
    )
    select page.id as card_id, page.user_id, p.first_name, p.last_name, u.email, page.balance,
           page.lifetime, page.visits, page.last_scan_at, page.created_at, page.k::text as k,
           (select count(*)::int from (select 1 from m limit ${LIST_COUNT_CAP + 1}) x) as n
    from page left join "user" u on u.id = page.user_id left join profiles p on p.id = page.user_id
    order by page.k ${dir}, page.id ${dir}`);
  return result.rows;
}

/** How many customers match, counted up to LIST_COUNT_CAP + 1. */
async function countCustomers(db: Db, shopId: string, q: CustomersQuery) {
  const where = customerFilter(shopId, q);
  const result = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (select 1 from cards c where ${where} limit ${LIST_COUNT_CAP + 1}) x`);
  return cappedTotal(Number(result.rows[0]?.n ?? 0));
}

export const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A customer as the owner's list and customer page show them. */
function customerDto(r: Omit<CustomerRow, "k">) {
  return {
    cardId: r.card_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
    /** The person's id, for /profile/{id}; null once the account is deleted. */
    userId: r.user_id,
    isDeleted: r.user_id === null,
    balance: r.balance,
    lifetime: r.lifetime,
    visits: r.visits,
    lastVisitAt: iso(r.last_scan_at),
    since: iso(r.created_at)!,
  };
}

/**
 * /admin/liste-clients: search, sort, points, visits, last visit. `total` is capped at LIST_COUNT_CAP
 * (`totalIsCapped` then says « plus de »). The access is checked once (shopTimezone), then the shop id is a value.
 */
export async function listCustomers(db: Db, access: ShopAccess, q: CustomersQuery) {
  await shopTimezone(db, access);
  if (q.q) {
    const found = await searchCustomers(db, access.shopId, q);
    const count = found[0] ? cappedTotal(Number(found[0].n)) : await countCustomers(db, access.shopId, q);
    return { customers: found.map(customerDto), ...count };
  }
  const [rows, count] = await Promise.all([
    queryCustomers(db, access.shopId, q, q),
    countCustomers(db, access.shopId, q),
  ]);
  return { customers: rows.map(customerDto), ...count };
}

export async function customersCsv(db: Db, access: ShopAccess, q: CustomersQuery) {
  const shop = await shopTimezone(db, access);
  await recordAudit(db, { actorId: access.userId, shopId: access.shopId, action: "export.customers", details: { sort: q.sort } });
  const body = csvStream(
    ["Prénom", "Nom", "E-mail", "Solde", "Total cumulé", "Passages", "Dernier passage", "Client depuis"],
    async (after) => {
      const rows = await queryCustomers(db, access.shopId, q, { limit: CSV_BATCH, offset: 0, after });
      const last = rows.at(-1);
      return { rows, last: last ? { k: last.k, id: last.card_id } : null };
    },
    (r) => [
      r.first_name ?? (r.user_id === null ? "Compte supprimé" : ""),
      r.last_name ?? "",
      r.email ?? "",
      r.balance,
      r.lifetime,
      r.visits,
      csvDateTime(r.last_scan_at === null ? null : new Date(r.last_scan_at), shop.timezone),
      csvDateTime(new Date(r.created_at), shop.timezone),
    ],
  );
  return { body, filename: `clients-${shop.slug}-${localParts(new Date(), shop.timezone).date}.csv` };
}

/** One customer of the shop: the card, its ledger and its latest scans. Another shop's card is 404. */
export async function getCustomer(db: Db, access: ShopAccess, cardId: string) {
  const result = await db.execute<Omit<CustomerRow, "k">>(sql`
    select c.id as card_id, c.user_id, p.first_name, p.last_name, u.email, c.balance, c.lifetime, c.visits,
           c.last_scan_at, c.created_at
    from cards c left join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
    where c.id = ${cardId} and c.shop_id = ${shopScope(access)}`);
  const r = result.rows[0];
  if (!r) throw new AppError("NOT_FOUND", { userMessage: "Client introuvable." });
  const entries = await db
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      delta: ledgerEntries.delta,
      reason: ledgerEntries.reason,
      actorId: ledgerEntries.actorId,
      actorName: sql<string | null>`(select u.name from "user" u where u.id = ${ledgerEntries.actorId})`,
      createdAt: ledgerEntries.createdAt,
    })
    .from(ledgerEntries)
    .innerJoin(cards, eq(cards.id, ledgerEntries.cardId))
    .where(and(eq(ledgerEntries.cardId, cardId), eq(cards.shopId, shopScope(access))))
    .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
    .limit(100);
  return {
    customer: customerDto(r),
    entries: entries.map(({ actorName, ...e }) => ({
      ...e,
      kindLabel: LEDGER_KIND_LABELS_FR[e.kind],
      /** Who on the team did it (a correction, a hand-over, a visit typed at the counter); null for the customer's own. */
      author: e.actorId && e.actorId !== r.user_id ? (actorName ?? "Ancien membre de l'équipe") : null,
      createdAt: e.createdAt.toISOString(),
    })),
  };
}
