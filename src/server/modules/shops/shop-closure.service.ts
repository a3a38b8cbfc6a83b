import { sql } from "drizzle-orm";
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
 * The export holds every row of every table that belongs to the shop — found in the catalogue (each table with a
 * `shop_id` column, `member` and `invitation` by `organization_id`), so a new table is exported without anyone
 * remembering it — plus the shop's customers with their names and e-mails (the shop is their data's controller).
 * Secrets stay out (the code key, addresses in the log).
 *
 * Deleting cannot remove the rows: the ledger is append-only and customers' cards, scans and redemptions are the
 * platform's figures too. The shop is closed for good instead: `deleted_at` set, suspended (every code refused),
 * its code key renewed, its details wiped (phone, SIRET, legal page, pictures, links, description, position), its
 * rewards and lots archived, pending redemptions refunded through the one close path, its team and invitations
 * removed (the owner may then delete their own account). The ledger and every total stay as they were. Logged.
 */

/** How recent the export must be for the deletion to go ahead. */
export const EXPORT_FRESH_HOURS = 24;
const OMIT: Record<string, readonly string[]> = { shops: ["code_secret"], audit_log: ["ip"] };

type Row = Record<string, unknown>;

async function shopTables(db: Db): Promise<{ table: string; column: string }[]> {
  const result = await db.execute<{ table: string; column: string }>(sql`
    select c.table_name as "table", c.column_name as "column"
    from information_schema.columns c
    join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
    where c.table_schema = 'public' and t.table_type = 'BASE TABLE'
      and (c.column_name = 'shop_id' or (c.table_name in ('member', 'invitation') and c.column_name = 'organization_id'))
    order by 1`);
  return result.rows;
}

/** Every row about the shop, table by table (the catalogue decides which tables). */
export async function collectShopData(db: Db, shopId: string): Promise<Record<string, Row[]>> {
  const out: Record<string, Row[]> = {};
  const pick = async (table: string, where: ReturnType<typeof sql>) => {
    const omit = new Set(OMIT[table] ?? []);
    const rows = await db.execute<Row>(sql`select * from ${sql.identifier(table)} where ${where} order by 1`);
    out[table] = rows.rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => !omit.has(k))));
  };
  await pick("shops", sql`id = ${shopId}`);
  await pick("organization", sql`id = ${shopId}`);
  for (const { table, column } of await shopTables(db)) await pick(table, sql`${sql.identifier(column)} = ${shopId}`);
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
