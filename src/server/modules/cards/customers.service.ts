import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { CSV_BOM, type CsvValue, csvDateTime, csvLine } from "../../../domain/loyalty/csv.ts";
import { LEDGER_KIND_LABELS_FR } from "../../../domain/loyalty/ledger.ts";
import {
  SCAN_FLAG_LABELS_FR,
  SCAN_METHOD_LABELS_FR,
  SCAN_OUTCOME_LABELS_FR,
  type ScanFlag,
  type ScanMethod,
  type ScanOutcome,
} from "../../../domain/loyalty/scan-rules.ts";
import { SEARCH_FOLD_FROM, SEARCH_FOLD_TO, foldSearch } from "../../../domain/loyalty/shop-text.ts";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import type { customersQuerySchema, scansQuerySchema } from "../../../domain/schemas/cards.ts";
import type { Db } from "../../db/client.ts";
import { cards, ledgerEntries, shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/** The owner's lists and figures: customers, scans, the dashboard; each scoped by `shopScope`. */

async function shopTimezone(db: Db, access: ShopAccess): Promise<{ timezone: string; name: string; slug: string }> {
  const [shop] = await db
    .select({ timezone: shops.timezone, name: shops.name, slug: shops.slug })
    .from(shops)
    .where(eq(shops.id, shopScope(access)))
    .limit(1);
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const fold = (expr: ReturnType<typeof sql>) => sql`translate(lower(${expr}), ${SEARCH_FOLD_FROM}, ${SEARCH_FOLD_TO})`;

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
 * Each sort as a non-null key (a customer never seen sorts as -infinity: last when newest first, first when
 * oldest first, as `nulls last` / `nulls first` did), its SQL type for the keyset, and whether it needs the
 * profile. Indexes in migration 0008 follow these keys: (shop_id, key, id), read forwards or backwards.
 */
const SORTS = {
  lastVisit: { key: sql`coalesce(c.last_scan_at, '-infinity'::timestamptz)`, type: sql`timestamptz`, profile: false },
  points: { key: sql`c.balance`, type: sql`integer`, profile: false },
  lifetime: { key: sql`c.lifetime`, type: sql`integer`, profile: false },
  visits: { key: sql`c.visits`, type: sql`integer`, profile: false },
  name: {
    key: sql`lower(coalesce(p.last_name, '') || ' ' || coalesce(p.first_name, ''))`,
    type: sql`text`,
    profile: true,
  },
  since: { key: sql`c.created_at`, type: sql`timestamptz`, profile: false },
} as const;

type CustomersQuery = z.output<typeof customersQuerySchema>;
type Keyset = { k: string; id: string; flagged?: boolean } | null;

/** Lists count up to here; beyond, the page says « plus de 10 000 ». */
export const LIST_COUNT_CAP = 10_000;

function customerFilter(shopId: string, q: CustomersQuery) {
  const term = q.q ? `%${likeEscape(foldSearch(q.q))}%` : null;
  const search = term
    ? sql`and ${fold(sql`coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '') || ' ' || coalesce(u.email, '')`)} like ${term}::text`
    : sql``;
  const joins = term
    ? sql`left join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id`
    : SORTS[q.sort].profile
      ? sql`left join profiles p on p.id = c.user_id`
      : sql``;
  return { where: sql`c.shop_id = ${shopId} ${search}`, joins };
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
  const { where, joins } = customerFilter(shopId, q);
  const after = page.after
    ? desc
      ? sql`and (${sort.key}, c.id) < (${page.after.k}::${sort.type}, ${page.after.id}::text)`
      : sql`and (${sort.key}, c.id) > (${page.after.k}::${sort.type}, ${page.after.id}::text)`
    : sql``;
  const result = await db.execute<CustomerRow>(sql`
    with page as (
      select c.id, c.user_id, c.balance, c.lifetime, c.visits, c.last_scan_at, c.created_at, ${sort.key} as k
      from cards c ${joins}
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
 * A search reads every customer of the shop once (the folded name and e-mail cannot be indexed by a btree):
 * the matches are made once, then the page and the capped count both read them.
 */
async function searchCustomers(db: Db, shopId: string, q: CustomersQuery) {
  const sort = SORTS[q.sort];
  const dir = q.order !== "asc" ? sql`desc` : sql`asc`;
  const { where, joins } = customerFilter(shopId, q);
  const result = await db.execute<CustomerRow & { n: number }>(sql`
    with m as materialized (
      select c.id, c.user_id, c.balance, c.lifetime, c.visits, c.last_scan_at, c.created_at, ${sort.key} as k,
             p.first_name, p.last_name, u.email
      from cards c ${joins}
      where ${where}
    ), page as (
      select * from m order by k ${dir}, id ${dir} limit ${q.limit} offset ${q.offset}
    )
    select page.id as card_id, page.user_id, page.first_name, page.last_name, page.email, page.balance,
           page.lifetime, page.visits, page.last_scan_at, page.created_at, page.k::text as k,
           (select count(*)::int from (select 1 from m limit ${LIST_COUNT_CAP + 1}) x) as n
    from page order by page.k ${dir}, page.id ${dir}`);
  return result.rows;
}

/** How many customers match, counted up to LIST_COUNT_CAP + 1. */
async function countCustomers(db: Db, shopId: string, q: CustomersQuery) {
  const { where, joins } = customerFilter(shopId, { ...q, sort: "points" });
  const result = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (select 1 from cards c ${joins} where ${where} limit ${LIST_COUNT_CAP + 1}) x`);
  return cappedTotal(Number(result.rows[0]?.n ?? 0));
}

const cappedTotal = (n: number) =>
  n > LIST_COUNT_CAP ? { total: LIST_COUNT_CAP, totalIsCapped: true } : { total: n, totalIsCapped: false };

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A customer as the owner's list and customer page show them. */
function customerDto(r: Omit<CustomerRow, "k">) {
  return {
    cardId: r.card_id,
    firstName: r.first_name,
    lastName: r.last_name,
    email: r.email,
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

/** Rows per query of a CSV export. */
export const CSV_BATCH = 1_000;

/**
 * A CSV file written as it is read: batches of CSV_BATCH rows (keyset on the list's own order), each
 * turned into text and handed to the client before the next is read, so memory stays flat and every row
 * is in the file. `next(after)` returns a batch and the key to continue from.
 */
function csvStream<R>(
  headers: readonly string[],
  next: (after: Keyset) => Promise<{ rows: R[]; last: Keyset }>,
  toRow: (r: R) => CsvValue[],
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let after: Keyset = null;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(`${CSV_BOM}${csvLine(headers)}`));
          return;
        }
        if (done) return;
        const batch = await next(after);
        if (batch.rows.length) controller.enqueue(encoder.encode(batch.rows.map((r) => csvLine(toRow(r))).join("")));
        if (batch.rows.length < CSV_BATCH || !batch.last) {
          done = true;
          controller.close();
        } else {
          after = batch.last;
        }
      },
    },
    { highWaterMark: 1 },
  );
}

export async function customersCsv(db: Db, access: ShopAccess, q: CustomersQuery) {
  const shop = await shopTimezone(db, access);
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

type ScanRow = {
  id: string;
  created_at: Date | string;
  outcome: ScanOutcome;
  method: ScanMethod;
  delta: number;
  multiplier: number;
  flags: ScanFlag[];
  device_id: string | null;
  device_no: number | null;
  card_id: string | null;
  user_id: string | null;
  actor_id: string;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** The keyset: flagged, time as text (microseconds kept). */
  flagged?: boolean;
  k?: string;
};

type ScansQuery = z.output<typeof scansQuerySchema>;
type ScanKeyset = { flagged: boolean; k: string; id: string } | null;

function scanFilter(shopId: string, tz: string, q: ScansQuery) {
  const from = q.from ? zonedToUtc(q.from, 0, tz) : null;
  const to = q.to ? zonedToUtc(addDays(q.to, 1), 0, tz) : null;
  return sql`s.shop_id = ${shopId}
      ${q.outcome ? sql`and s.outcome = ${q.outcome}::text` : sql``}
      ${from ? sql`and s.created_at >= ${from}::timestamptz` : sql``}
      ${to ? sql`and s.created_at < ${to}::timestamptz` : sql``}
      ${q.flagged ? sql`and cardinality(s.flags) > 0` : sql``}
      ${q.cardId ? sql`and s.card_id = ${q.cardId}::text` : sql``}`;
}

/**
 * One page of scans, flagged first then newest: the page's rows first (index scans_shop_flagged_time_idx of
 * migration 0008, read backwards), then the names. `after` continues from a row (keyset, for exports).
 */
async function queryScans(
  db: Db,
  shopId: string,
  tz: string,
  q: ScansQuery,
  page: { limit: number; offset: number; after?: { flagged: boolean; k: string; id: string } | null },
  withDevices = true,
) {
  const after = page.after
    ? sql`and (cardinality(s.flags) > 0, s.created_at, s.id) < (${page.after.flagged}::boolean, ${page.after.k}::timestamptz, ${page.after.id}::text)`
    : sql``;
  const result = await db.execute<ScanRow>(sql`
    with devices as materialized (${deviceNumbers(shopId)}),
    page as (
      select s.id, s.created_at, s.outcome, s.method, s.delta, s.multiplier, s.flags, s.device_id, s.card_id,
             s.user_id, s.actor_id, cardinality(s.flags) > 0 as flagged
      from scans s
      where ${scanFilter(shopId, tz, q)} ${after}
      order by cardinality(s.flags) > 0 desc, s.created_at desc, s.id desc
      limit ${page.limit} offset ${page.after ? 0 : page.offset}
    )
    select page.*, page.created_at::text as k, p.first_name, p.last_name, u.email,
           ${withDevices ? sql`(select dv.device_no from devices dv where dv.device_id = page.device_id)` : sql`null::int`} as device_no
    from page left join "user" u on u.id = page.user_id left join profiles p on p.id = page.user_id
    order by page.flagged desc, page.created_at desc, page.id desc`);
  return result.rows;
}

async function countScans(db: Db, shopId: string, tz: string, q: ScansQuery) {
  const result = await db.execute<{ n: number }>(sql`
    select count(*)::int as n from (select 1 from scans s where ${scanFilter(shopId, tz, q)} limit ${LIST_COUNT_CAP + 1}) x`);
  return cappedTotal(Number(result.rows[0]?.n ?? 0));
}

/**
 * Devices are numbered per shop in the order they were first seen (« appareil 3 »): a raw id means nothing to an
 * owner, a number is stable and tells two phones apart. It costs one pass over the shop's scans with a device.
 */
const deviceNumbers = (shopId: string) => sql`
  select device_id, (row_number() over (order by min(created_at), device_id))::int as device_no
  from scans where shop_id = ${shopId} and device_id is not null group by device_id`;
const deviceLabelFr = (n: number | null) => (n ? `appareil ${n}` : null);

function scanDto(r: ScanRow) {
  return {
    id: r.id,
    createdAt: iso(r.created_at)!,
    outcome: r.outcome,
    outcomeLabel: SCAN_OUTCOME_LABELS_FR[r.outcome],
    method: r.method,
    methodLabel: SCAN_METHOD_LABELS_FR[r.method],
    delta: r.delta,
    multiplier: r.multiplier,
    flags: r.flags,
    flagLabels: r.flags.map((f) => SCAN_FLAG_LABELS_FR[f]),
    isFlagged: r.flags.length > 0,
    byStaff: r.actor_id !== r.user_id,
    deviceLabel: deviceLabelFr(r.device_no),
    customer: { cardId: r.card_id, firstName: r.first_name, lastName: r.last_name, email: r.email },
  };
}

/** /admin/liste-scans, /admin/scans: every attempt, flagged first, with filters; `total` capped as the customers'. */
export async function listScans(db: Db, access: ShopAccess, q: ScansQuery) {
  const shop = await shopTimezone(db, access);
  const [rows, count] = await Promise.all([
    queryScans(db, access.shopId, shop.timezone, q, q),
    countScans(db, access.shopId, shop.timezone, q),
  ]);
  return { scans: rows.map(scanDto), ...count };
}

export async function scansCsv(db: Db, access: ShopAccess, q: ScansQuery) {
  const shop = await shopTimezone(db, access);
  // The device numbers once for the whole file, not once per batch.
  let devices: Map<string, number> | null = null;
  const body = csvStream(
    ["Date", "Résultat", "Mode", "Points", "Multiplicateur", "Alerte", "Prénom", "Nom", "E-mail", "Appareil"],
    async (after) => {
      devices ??= new Map(
        (await db.execute<{ device_id: string; device_no: number }>(deviceNumbers(access.shopId))).rows.map((d) => [
          d.device_id,
          Number(d.device_no),
        ]),
      );
      const rows = await queryScans(
        db,
        access.shopId,
        shop.timezone,
        q,
        { limit: CSV_BATCH, offset: 0, after: after as ScanKeyset },
        false,
      );
      const last = rows.at(-1);
      return { rows, last: last ? { flagged: Boolean(last.flagged), k: last.k!, id: last.id } : null };
    },
    (r) => [
      csvDateTime(new Date(r.created_at), shop.timezone),
      SCAN_OUTCOME_LABELS_FR[r.outcome],
      SCAN_METHOD_LABELS_FR[r.method],
      r.delta,
      r.multiplier,
      r.flags.map((f) => SCAN_FLAG_LABELS_FR[f]).join(", "),
      r.first_name ?? "",
      r.last_name ?? "",
      r.email ?? "",
      deviceLabelFr(r.device_id ? (devices?.get(r.device_id) ?? null) : null) ?? "",
    ],
  );
  return { body, filename: `passages-${shop.slug}-${localParts(new Date(), shop.timezone).date}.csv` };
}

/** /manager: today's scans (local day of the shop), newest first. */
export async function listTodayScans(db: Db, access: ShopAccess) {
  const shop = await shopTimezone(db, access);
  const today = localParts(new Date(), shop.timezone).date;
  const rows = await db.execute<ScanRow>(sql`
    select s.id, s.created_at, s.outcome, s.method, s.delta, s.multiplier, s.flags, s.device_id, s.card_id, s.user_id,
           s.actor_id, p.first_name, p.last_name, u.email
    from scans s left join "user" u on u.id = s.user_id left join profiles p on p.id = s.user_id
    where s.shop_id = ${shopScope(access)} and s.created_at >= ${zonedToUtc(today, 0, shop.timezone)}::timestamptz
    order by s.created_at desc, s.id
    limit 300`);
  return { date: today, scans: rows.rows.map(scanDto) };
}

type DayRow = {
  day: string | Date;
  new_customers: number;
  scans: number;
  refused: number;
  points: number;
  redemptions: number;
};

/** /admin: the last `days` days, day by day in the shop's time zone, and the totals. */
export async function getDashboard(db: Db, access: ShopAccess, days: number) {
  const shop = await shopTimezone(db, access);
  const tz = shop.timezone;
  const today = localParts(new Date(), tz).date;
  const first = addDays(today, -(days - 1));
  const from = zonedToUtc(first, 0, tz);
  // shopTimezone has checked the access: the shop id is a value here (real planner estimates, no JIT).
  const scope = access.shopId;
  const series = await db.execute<DayRow>(sql`
    with days as (
      select d::date as day from generate_series(${first}::date, ${today}::date, interval '1 day') d
    ), s as (
      select (created_at at time zone ${tz})::date as day,
             count(*) filter (where outcome = 'accepted')::int as scans,
             count(*) filter (where outcome <> 'accepted')::int as refused
      from scans where shop_id = ${scope} and created_at >= ${from}::timestamptz group by 1
    ), l as (
      select (created_at at time zone ${tz})::date as day,
             coalesce(sum(delta) filter (where kind in ('scan', 'double_points', 'bonus')), 0)::int as points,
             count(*) filter (where kind = 'redemption')::int as redemptions
      from ledger_entries where shop_id = ${scope} and created_at >= ${from}::timestamptz group by 1
    ), c as (
      select (created_at at time zone ${tz})::date as day, count(*)::int as new_customers
      from cards where shop_id = ${scope} and created_at >= ${from}::timestamptz group by 1
    )
    select to_char(days.day, 'YYYY-MM-DD') as day, coalesce(c.new_customers, 0) as new_customers, coalesce(s.scans, 0) as scans,
           coalesce(s.refused, 0) as refused, coalesce(l.points, 0) as points, coalesce(l.redemptions, 0) as redemptions
    from days left join s on s.day = days.day left join l on l.day = days.day left join c on c.day = days.day
    order by days.day`);
  const totals = await db.execute<{
    customers: number;
    active_customers: number;
    flagged: number;
    outstanding: number;
  }>(sql`
    select
      (select count(*)::int from cards where shop_id = ${scope}) as customers,
      (select count(distinct card_id)::int from scans where shop_id = ${scope} and outcome = 'accepted' and created_at >= ${from}::timestamptz) as active_customers,
      (select count(*)::int from scans where shop_id = ${scope} and cardinality(flags) > 0 and created_at >= ${from}::timestamptz) as flagged,
      (select coalesce(sum(balance), 0)::int from cards where shop_id = ${scope}) as outstanding`);
  const perDay = series.rows.map((r) => ({
    date: typeof r.day === "string" ? r.day : new Date(r.day).toISOString().slice(0, 10),
    newCustomers: Number(r.new_customers),
    scans: Number(r.scans),
    refused: Number(r.refused),
    points: Number(r.points),
    redemptions: Number(r.redemptions),
  }));
  const t = totals.rows[0]!;
  return {
    from: first,
    to: today,
    days: perDay,
    totals: {
      customers: Number(t.customers),
      newCustomers: perDay.reduce((s, d) => s + d.newCustomers, 0),
      activeCustomers: Number(t.active_customers),
      scans: perDay.reduce((s, d) => s + d.scans, 0),
      refused: perDay.reduce((s, d) => s + d.refused, 0),
      flagged: Number(t.flagged),
      points: perDay.reduce((s, d) => s + d.points, 0),
      redemptions: perDay.reduce((s, d) => s + d.redemptions, 0),
      outstandingBalance: Number(t.outstanding),
    },
  };
}
