import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { csvDateTime, toCsv } from "../../../domain/loyalty/csv.ts";
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
  total: number;
};

const SORT_SQL = {
  lastVisit: sql`c.last_scan_at`,
  points: sql`c.balance`,
  lifetime: sql`c.lifetime`,
  visits: sql`c.visits`,
  name: sql`lower(coalesce(p.last_name, '') || ' ' || coalesce(p.first_name, ''))`,
  since: sql`c.created_at`,
} as const;

type CustomersQuery = z.output<typeof customersQuerySchema>;

async function queryCustomers(db: Db, access: ShopAccess, q: CustomersQuery, page: { limit: number; offset: number }) {
  const term = q.q ? `%${likeEscape(foldSearch(q.q))}%` : null;
  const direction = q.order === "asc" ? sql`asc nulls first` : sql`desc nulls last`;
  const result = await db.execute<CustomerRow>(sql`
    select c.id as card_id, c.user_id, p.first_name, p.last_name, u.email, c.balance, c.lifetime, c.visits,
           c.last_scan_at, c.created_at, (count(*) over ())::int as total
    from cards c
    left join "user" u on u.id = c.user_id
    left join profiles p on p.id = c.user_id
    where c.shop_id = ${shopScope(access)}
      and (${term}::text is null or ${fold(sql`coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '') || ' ' || coalesce(u.email, '')`)} like ${term}::text)
    order by ${SORT_SQL[q.sort]} ${direction}, c.id
    limit ${page.limit} offset ${page.offset}`);
  return result.rows;
}

const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());

/** A customer as the owner's list and customer page show them. */
function customerDto(r: Omit<CustomerRow, "total">) {
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

/** /admin/liste-clients: search, sort, points, visits, last visit. */
export async function listCustomers(db: Db, access: ShopAccess, q: CustomersQuery) {
  await shopTimezone(db, access);
  const rows = await queryCustomers(db, access, q, q);
  return {
    customers: rows.map(customerDto),
    total: rows[0]?.total ?? 0,
  };
}

export const CSV_MAX_ROWS = 50_000;

export async function customersCsv(db: Db, access: ShopAccess, q: CustomersQuery) {
  const shop = await shopTimezone(db, access);
  const rows = await queryCustomers(db, access, q, { limit: CSV_MAX_ROWS, offset: 0 });
  const csv = toCsv(
    ["Prénom", "Nom", "E-mail", "Solde", "Total cumulé", "Passages", "Dernier passage", "Client depuis"],
    rows.map((r) => [
      r.first_name ?? (r.user_id === null ? "Compte supprimé" : ""),
      r.last_name ?? "",
      r.email ?? "",
      r.balance,
      r.lifetime,
      r.visits,
      csvDateTime(r.last_scan_at === null ? null : new Date(r.last_scan_at), shop.timezone),
      csvDateTime(new Date(r.created_at), shop.timezone),
    ]),
  );
  return { csv, filename: `clients-${shop.slug}-${localParts(new Date(), shop.timezone).date}.csv` };
}

/** One customer of the shop: the card, its ledger and its latest scans. Another shop's card is 404. */
export async function getCustomer(db: Db, access: ShopAccess, cardId: string) {
  const result = await db.execute<Omit<CustomerRow, "total">>(sql`
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
  total: number;
};

type ScansQuery = z.output<typeof scansQuerySchema>;

async function queryScans(
  db: Db,
  access: ShopAccess,
  tz: string,
  q: ScansQuery,
  page: { limit: number; offset: number },
) {
  const from = q.from ? zonedToUtc(q.from, 0, tz) : null;
  const to = q.to ? zonedToUtc(addDays(q.to, 1), 0, tz) : null;
  // Devices are numbered per shop in the order they were first seen (« appareil 3 »): a raw id means nothing to
  // an owner, a number is stable and tells two phones apart.
  const result = await db.execute<ScanRow>(sql`
    with devices as (
      select device_id, (row_number() over (order by min(created_at), device_id))::int as device_no
      from scans where shop_id = ${shopScope(access)} and device_id is not null group by device_id
    )
    select s.id, s.created_at, s.outcome, s.method, s.delta, s.multiplier, s.flags, s.device_id, dv.device_no, s.card_id,
           s.user_id, s.actor_id, p.first_name, p.last_name, u.email, (count(*) over ())::int as total
    from scans s
    left join devices dv on dv.device_id = s.device_id
    left join "user" u on u.id = s.user_id
    left join profiles p on p.id = s.user_id
    where s.shop_id = ${shopScope(access)}
      and (${q.outcome ?? null}::text is null or s.outcome = ${q.outcome ?? null}::text)
      and (${from}::timestamptz is null or s.created_at >= ${from}::timestamptz)
      and (${to}::timestamptz is null or s.created_at < ${to}::timestamptz)
      and (not ${q.flagged}::boolean or cardinality(s.flags) > 0)
      and (${q.cardId ?? null}::text is null or s.card_id = ${q.cardId ?? null}::text)
    order by (cardinality(s.flags) > 0) desc, s.created_at desc, s.id
    limit ${page.limit} offset ${page.offset}`);
  return result.rows;
}

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

/** /admin/liste-scans, /admin/scans: every attempt, flagged first, with filters. */
export async function listScans(db: Db, access: ShopAccess, q: ScansQuery) {
  const shop = await shopTimezone(db, access);
  const rows = await queryScans(db, access, shop.timezone, q, q);
  return { scans: rows.map(scanDto), total: rows[0]?.total ?? 0 };
}

export async function scansCsv(db: Db, access: ShopAccess, q: ScansQuery) {
  const shop = await shopTimezone(db, access);
  const rows = await queryScans(db, access, shop.timezone, q, { limit: CSV_MAX_ROWS, offset: 0 });
  const csv = toCsv(
    ["Date", "Résultat", "Mode", "Points", "Multiplicateur", "Alerte", "Prénom", "Nom", "E-mail", "Appareil"],
    rows.map((r) => [
      csvDateTime(new Date(r.created_at), shop.timezone),
      SCAN_OUTCOME_LABELS_FR[r.outcome],
      SCAN_METHOD_LABELS_FR[r.method],
      r.delta,
      r.multiplier,
      r.flags.map((f) => SCAN_FLAG_LABELS_FR[f]).join(", "),
      r.first_name ?? "",
      r.last_name ?? "",
      r.email ?? "",
      deviceLabelFr(r.device_no) ?? "",
    ]),
  );
  return { csv, filename: `passages-${shop.slug}-${localParts(new Date(), shop.timezone).date}.csv` };
}

/** /manager: today's scans (local day of the shop), newest first. */
export async function listTodayScans(db: Db, access: ShopAccess) {
  const shop = await shopTimezone(db, access);
  const today = localParts(new Date(), shop.timezone).date;
  const rows = await db.execute<ScanRow>(sql`
    select s.id, s.created_at, s.outcome, s.method, s.delta, s.multiplier, s.flags, s.device_id, s.card_id, s.user_id,
           s.actor_id, p.first_name, p.last_name, u.email, 0 as total
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
  const scope = shopScope(access);
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
