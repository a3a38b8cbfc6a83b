import { type SQL, sql } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { AppError } from "../../../domain/errors.ts";
import { randomSecret } from "../../../domain/loyalty/scan-code.ts";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../../lib/audit.ts";
import type { Deps } from "../../lib/context.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { tableCsv } from "../accounts/rgpd.service.ts";
import { forgetScanProfile } from "../cards/scan.service.ts";
import { closeRedemption } from "../rewards/redemptions.service.ts";

/**
 * An owner exports, then deletes, their shop (issue 16, item 9).
 *
 * The export holds every row of every table that belongs to the shop — found in the catalogue by following foreign
 * keys from the shop (shopExportPlan), so a new table is exported without anyone remembering it — plus the shop's
 * customers with their names and e-mails (the shop is their data's controller).
 * Secrets stay out (the code key, addresses in the log).
 *
 * Deleting cannot remove the rows: the ledger is append-only and customers' cards, scans and redemptions are the
 * platform's figures too. The shop is closed for good instead: `deleted_at` set, suspended (every code refused),
 * its code key renewed, its details wiped (phone, SIRET, legal page, pictures, links, description, position), its
 * rewards and lots archived, pending redemptions refunded through the one close path, its team and invitations
 * removed (the owner may then delete their own account). The ledger and every total stay as they were. Logged.
 */

/** How recent the export must be for the deletion to go ahead. */
const EXPORT_FRESH_HOURS = 24;
const OMIT: Record<string, readonly string[]> = { shops: ["code_secret"], audit_log: ["ip"] };

/**
 * Tables the walk reaches but the export leaves out, each with its reason. tests/api/shop-closure.test.ts walks the
 * catalogue itself and fails when a reachable table is neither exported nor listed here.
 */
export const SHOP_EXPORT_EXCLUDED: Record<string, string> = {};

type Row = Record<string, unknown>;
type ForeignKey = { child: string; childColumns: string[]; parent: string; parentColumns: string[] };

/**
 * Which rows of which table belong to a shop, read from the catalogue (issue 22, row 6): the shop and its
 * organisation; every table with a `shop_id` column (the audit log has no foreign key: it outlives what it names);
 * then, breadth first, every table whose foreign key points at a row already reached — contest entries, prizes and
 * règlements through their contest, deliveries through their message, events through their delivery — so a new
 * table is exported without anyone remembering it. Only the direction child → parent is followed: a card reaches
 * its ledger, never its customer's account.
 */
async function shopExportPlan(db: Db): Promise<{ table: string; where: (shopId: string) => SQL }[]> {
  const [columns, keys] = await Promise.all([
    db.execute<{ table: string }>(sql`
      select c.table_name as "table" from information_schema.columns c
      join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.column_name = 'shop_id'
      order by 1`),
    db.execute<ForeignKey>(sql`
      select child.relname as child, parent.relname as parent,
        array(select a.attname::text from unnest(con.conkey) with ordinality k(n, i)
              join pg_attribute a on a.attrelid = con.conrelid and a.attnum = k.n order by k.i) as "childColumns",
        array(select a.attname::text from unnest(con.confkey) with ordinality k(n, i)
              join pg_attribute a on a.attrelid = con.confrelid and a.attnum = k.n order by k.i) as "parentColumns"
      from pg_constraint con
      join pg_class child on child.oid = con.conrelid
      join pg_class parent on parent.oid = con.confrelid
      where con.contype = 'f' and con.connamespace = 'public'::regnamespace
      order by 1, 2, con.conname`),
  ]);
  const reached = new Map<string, (shopId: string) => SQL>([
    ["shops", (id) => sql`id = ${id}`],
    ["organization", (id) => sql`id = ${id}`],
  ]);
  for (const { table } of columns.rows) if (!reached.has(table)) reached.set(table, (id) => sql`shop_id = ${id}`);
  const queue = [...reached.keys()];
  for (let parent = queue.shift(); parent !== undefined; parent = queue.shift()) {
    const parentWhere = reached.get(parent) as (shopId: string) => SQL;
    for (const fk of keys.rows) {
      if (fk.parent !== parent || reached.has(fk.child) || fk.child in SHOP_EXPORT_EXCLUDED) continue;
      const list = (names: string[]) =>
        sql.join(
          names.map((n) => sql.identifier(n)),
          sql`, `,
        );
      reached.set(
        fk.child,
        (id) =>
          sql`(${list(fk.childColumns)}) in (select ${list(fk.parentColumns)} from ${sql.identifier(parent)} where ${parentWhere(id)})`,
      );
      queue.push(fk.child);
    }
  }
  return [...reached].map(([table, where]) => ({ table, where }));
}

/** Every row about the shop, table by table (the catalogue decides which tables). */
async function collectShopData(db: Db, shopId: string): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  for (const { table, where } of await shopExportPlan(db)) {
    const omit = new Set(OMIT[table] ?? []);
    const rows = await db.execute<Row>(sql`select * from ${sql.identifier(table)} where ${where(shopId)} order by 1`);
    out[table] = rows.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !omit.has(k))));
  }
  const customers = await db.execute<Row>(sql`
    select c.id as card_id, c.user_id, u.email, p.first_name, p.last_name, c.balance, c.lifetime, c.created_at
    from cards c left join "user" u on u.id = c.user_id left join profiles p on p.id = c.user_id
    where c.shop_id = ${shopId} order by c.created_at`);
  out.clients = customers.rows;
  return out;
}

function mustBeOwner(access: ShopAccess) {
  if (access.role !== "owner") {
    throw new AppError("FORBIDDEN", {
      message: "not the shop's owner",
      userMessage: "Seul le propriétaire de la boutique peut l'exporter en entier ou la supprimer.",
    });
  }
}

async function liveShop(db: Db, access: ShopAccess) {
  const [shop] = (
    await db.execute<{ id: string; name: string; slug: string; scan_uid: string; deleted_at: unknown }>(
      sql`select id, name, slug, scan_uid, deleted_at from shops where id = ${shopScope(access)}`,
    )
  ).rows;
  if (!shop || shop.deleted_at !== null) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

/** The archive: donnees.json and one CSV per table, in one zip. Logged (`export.shop`): the deletion needs it. */
export async function exportShop(db: Db, access: ShopAccess, ip: string | null, now = new Date()) {
  mustBeOwner(access);
  const shop = await liveShop(db, access);
  const data = await collectShopData(db, shop.id);
  const files: Record<string, Uint8Array> = {
    "donnees.json": strToU8(JSON.stringify({ exportedAt: now.toISOString(), shop: shop.name, tables: data }, null, 2)),
  };
  for (const [table, rows] of Object.entries(data)) files[`csv/${table}.csv`] = strToU8(tableCsv(rows));
  const zip = zipSync(files, { level: 6, mtime: now });
  await recordAudit(db, { actorId: access.userId, shopId: shop.id, action: "export.shop", target: shop.id, ip });
  return { zip, filename: `fidele-boutique-${shop.slug}-${now.toISOString().slice(0, 10)}.zip` };
}

const normalize = (s: string) => s.normalize("NFC").trim().toLocaleLowerCase("fr");

export async function deleteShop(deps: Deps, access: ShopAccess, confirmName: string, ip: string | null) {
  const { db } = deps;
  mustBeOwner(access);
  const shop = await liveShop(db, access);
  if (normalize(confirmName) !== normalize(shop.name)) {
    throw new AppError("VALIDATION", {
      userMessage: "Le nom saisi ne correspond pas : la boutique n'a pas été supprimée.",
      fields: { name: `Saisissez « ${shop.name} » pour confirmer.` },
    });
  }
  const exported = await db.execute(sql`
    select 1 from audit_log where shop_id = ${shop.id} and actor_id = ${access.userId} and action = 'export.shop'
      and created_at > now() - make_interval(hours => ${EXPORT_FRESH_HOURS}) limit 1`);
  if (exported.rows.length === 0) {
    throw new AppError("CONFLICT", {
      userMessage: "Téléchargez d'abord l'export de votre boutique : il sera votre seule copie de ses données.",
    });
  }

  // Pending redemptions give their points back (a refund each), like an account's erasure.
  const pending = await db.execute<{ id: string }>(
    sql`select id from redemptions where shop_id = ${shop.id} and status = 'pending'`,
  );
  let refunded = 0;
  for (const r of pending.rows) {
    const answer = await closeRedemption(deps.database, r.id, "cancelled", { actorId: access.userId, shopId: shop.id });
    if (answer.closed) refunded++;
  }

  await db.transaction(async (tx) => {
    await tx.execute(sql`
      update shops set deleted_at = now(), status = 'suspended', suspended_at = now(),
        suspended_reason = 'Boutique fermée par son propriétaire', code_secret = ${randomSecret(32)},
        phone = '', siret = null, legal = null, description = null, logo = null, cover = null,
        links = '{"website":null,"instagram":null,"facebook":null,"tiktok":null}'::jsonb, lat = null, lng = null,
        birthday_reward_id = null, updated_at = now()
      where id = ${shop.id}`);
    await tx.execute(sql`update organization set logo = null where id = ${shop.id}`);
    await tx.execute(sql`update rewards set archived_at = coalesce(archived_at, now()), is_active = false where shop_id = ${shop.id}`);
    await tx.execute(sql`update prize_lots set archived_at = coalesce(archived_at, now()) where shop_id = ${shop.id}`);
    await tx.execute(sql`delete from invitation where organization_id = ${shop.id}`);
    await tx.execute(sql`delete from member where organization_id = ${shop.id}`);
    await recordAudit(tx, {
      actorId: access.userId,
      shopId: shop.id,
      action: "shop.delete",
      target: shop.id,
      details: { name: shop.name, refundedRedemptions: refunded },
      ip,
    });
  });
  forgetScanProfile(db, shop.scan_uid);
  return { ok: true as const, refundedRedemptions: refunded };
}
