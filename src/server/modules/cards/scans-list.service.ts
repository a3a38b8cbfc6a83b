import { sql } from "drizzle-orm";
import type { z } from "zod";
import { csvDateTime } from "../../../domain/loyalty/csv.ts";
import {
  SCAN_FLAG_LABELS_FR,
  SCAN_METHOD_LABELS_FR,
  SCAN_OUTCOME_LABELS_FR,
  type ScanFlag,
  type ScanMethod,
  type ScanOutcome,
} from "../../../domain/loyalty/scan-rules.ts";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import type { scansQuerySchema } from "../../../domain/schemas/cards.ts";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

import { CSV_BATCH, cappedTotal, csvStream, LIST_COUNT_CAP } from "../../lib/list-page.ts";
import { iso, shopTimezone } from "./customers.service.ts";

/** The owner's list of scans (every attempt, flagged first), its CSV, and the counter's scans of today. */

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
) {
  const after = page.after
    ? sql`and (cardinality(s.flags) > 0, s.created_at, s.id) < (${page.after.flagged}::boolean, ${page.after.k}::timestamptz, ${page.after.id}::text)`
    : sql``;
  const result = await db.execute<ScanRow>(sql`
    with page as (
      select s.id, s.created_at, s.outcome, s.method, s.delta, s.multiplier, s.flags, s.device_id, s.card_id,
             s.user_id, s.actor_id, cardinality(s.flags) > 0 as flagged
      from scans s
      where ${scanFilter(shopId, tz, q)} ${after}
      order by cardinality(s.flags) > 0 desc, s.created_at desc, s.id desc
      limit ${page.limit} offset ${page.after ? 0 : page.offset}
    )
    select page.*, page.created_at::text as k, p.first_name, p.last_name, u.email,
           dv.device_no
    from page left join "user" u on u.id = page.user_id left join profiles p on p.id = page.user_id
    left join shop_devices dv on dv.shop_id = ${shopId} and dv.device_id = page.device_id
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
 * owner, a number is stable and tells two phones apart. The number is stored when a device first scans at the shop
 * (shop_devices, src/server/db/functions/daily-stats.sql): the page reads its own rows' numbers.
 */
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
  await recordAudit(db, { actorId: access.userId, shopId: access.shopId, action: "export.scans", details: { flagged: q.flagged } });
  const body = csvStream(
    ["Date", "Résultat", "Mode", "Points", "Multiplicateur", "Alerte", "Prénom", "Nom", "E-mail", "Appareil"],
    async (after) => {
      const rows = await queryScans(
        db,
        access.shopId,
        shop.timezone,
        q,
        { limit: CSV_BATCH, offset: 0, after: after as ScanKeyset },
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
      deviceLabelFr(r.device_no) ?? "",
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
