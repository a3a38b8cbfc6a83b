import { sql } from "drizzle-orm";
import { WINNING_STATUS_LABELS_FR } from "../../../domain/contests/contests.ts";
import { AppError } from "../../../domain/errors.ts";
import { formatEuros, personName } from "../../../domain/format.ts";
import { REDEMPTION_STATUS_LABELS_FR, unitLabelFr } from "../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../domain/loyalty/scan-rules.ts";
import type { Db } from "../../db/client.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { archiveLot } from "../contests/lots.service.ts";
import { rewardPhotoUrl } from "./rewards.service.ts";

/**
 * /admin/{product}: the back-office page of one reward (by its slug) or one prize lot (by `lot-<its id>`, lots have
 * no slug of their own) — figures, who took it, edit and archive. Scoped to the shop of the path: another shop's
 * product and an unknown slug are the same 404.
 */

const WEEKS = 12;
const LOT_PREFIX = "lot-";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const productNotFound = () =>
  new AppError("NOT_FOUND", { userMessage: "Cette récompense ou ce lot n'existe pas dans votre boutique." });

type Week = { week: string; count: number };
type Taker = { id: string; userId: string | null; name: string; status: string; statusLabel: string; at: string };

/** The last WEEKS weeks (Monday, in the shop's time zone), oldest first, zeros included. */
async function weekly(db: Db, table: "redemptions" | "contest_winnings", column: "reward_id" | "lot_id", id: string, tz: string) {
  const rows = await db.execute<{ week: string; count: number }>(sql`
    with weeks as (
      select generate_series(
        date_trunc('week', (now() at time zone ${tz})) - make_interval(weeks => ${WEEKS - 1}),
        date_trunc('week', (now() at time zone ${tz})),
        interval '1 week')::date as week)
    select to_char(w.week, 'YYYY-MM-DD') as week, count(x.id)::int as count
    from weeks w
    left join ${sql.identifier(table)} x
      on x.${sql.identifier(column)} = ${id}
      and date_trunc('week', x.created_at at time zone ${tz})::date = w.week
      ${table === "redemptions" ? sql`and x.status in ('pending', 'validated')` : sql`and x.status <> 'redrawn'`}
    group by w.week order by w.week`);
  return rows.rows.map((r): Week => ({ week: r.week, count: Number(r.count) }));
}

/** The last 50 who took the product (a redemption of the reward, a winning of the lot), newest first. */
async function takers<S extends string>(
  db: Db,
  table: "redemptions" | "contest_winnings",
  column: "reward_id" | "lot_id",
  id: string,
  shopId: string,
  labels: Record<S, string>,
) {
  const rows = await db.execute<{
    id: string;
    user_id: string | null;
    first_name: string | null;
    last_name: string | null;
    status: S;
    created_at: Date | string;
  }>(sql`
    select x.id, x.user_id, p.first_name, p.last_name, x.status, x.created_at
    from ${sql.identifier(table)} x left join profiles p on p.id = x.user_id
    where x.${sql.identifier(column)} = ${id} and x.shop_id = ${shopId}
    order by x.created_at desc limit 50`);
  return rows.rows.map(
    (t): Taker => ({
      id: t.id,
      userId: t.user_id,
      name: t.user_id ? personName({ firstName: t.first_name, lastName: t.last_name }) : "Compte supprimé",
      status: t.status,
      statusLabel: labels[t.status] ?? t.status,
      at: new Date(t.created_at).toISOString(),
    }),
  );
}

async function rewardProduct(db: Db, access: ShopAccess, slug: string) {
  const found = await db.execute<{
    id: string;
    slug: string;
    title: string;
    description: string | null;
    has_photo: boolean;
    cost: number;
    stock: number | null;
    kind: "repeatable" | "ladder";
    is_active: boolean;
    archived_at: Date | string | null;
    updated_at: Date | string;
    card_mode: CardMode;
    timezone: string;
    validated: number;
    pending: number;
  }>(sql`
    select r.id, r.slug, r.title, r.description, r.photo is not null as has_photo, r.cost, r.stock, r.kind,
      r.is_active, r.archived_at, r.updated_at, s.card_mode, s.timezone,
      (select count(*)::int from redemptions d where d.reward_id = r.id and d.status = 'validated') as validated,
      (select count(*)::int from redemptions d where d.reward_id = r.id and d.status = 'pending' and d.expires_at > now()) as pending
    from rewards r join shops s on s.id = r.shop_id
    where r.slug = ${slug} and r.shop_id = ${shopScope(access)}`);
  const r = found.rows[0];
  if (!r) return null;
  return {
    kind: "reward" as const,
    id: r.id,
    slug: r.slug,
    title: r.title,
    description: r.description,
    photoUrl: rewardPhotoUrl(r.slug, r.has_photo, new Date(r.updated_at)),
    archived: r.archived_at !== null,
    isActive: r.is_active,
    facts: [
      { label: "Coût", value: unitLabelFr(r.card_mode, r.cost) },
      { label: "Stock", value: r.stock === null ? "Illimité" : String(r.stock) },
      { label: "Remises", value: String(r.validated) },
      { label: "En attente", value: String(r.pending) },
    ],
    weeks: await weekly(db, "redemptions", "reward_id", r.id, r.timezone),
    takers: await takers(db, "redemptions", "reward_id", r.id, access.shopId, REDEMPTION_STATUS_LABELS_FR),
    editUrl: `/admin/ajouter-un-reward?id=${r.id}`,
  };
}

async function lotProduct(db: Db, access: ShopAccess, lotId: string) {
  const found = await db.execute<{
    id: string;
    name: string;
    description: string | null;
    value_cents: number;
    quantity: number;
    remaining: number;
    archived_at: Date | string | null;
    timezone: string;
  }>(sql`
    select l.id, l.name, l.description, l.value_cents, l.quantity, l.remaining, l.archived_at, s.timezone
    from prize_lots l join shops s on s.id = l.shop_id
    where l.id = ${lotId} and l.shop_id = ${shopScope(access)}`);
  const l = found.rows[0];
  if (!l) return null;
  return {
    kind: "lot" as const,
    id: l.id,
    slug: `${LOT_PREFIX}${l.id}`,
    title: l.name,
    description: l.description,
    photoUrl: null,
    archived: l.archived_at !== null,
    isActive: l.archived_at === null,
    facts: [
      { label: "Valeur", value: formatEuros(l.value_cents / 100) },
      { label: "Quantité", value: String(l.quantity) },
      { label: "Restants", value: String(l.remaining) },
      { label: "Gagnés", value: String(l.quantity - l.remaining) },
    ],
    weeks: await weekly(db, "contest_winnings", "lot_id", l.id, l.timezone),
    takers: await takers(db, "contest_winnings", "lot_id", l.id, access.shopId, WINNING_STATUS_LABELS_FR),
    // The lots page opens this lot's form (prize-lots-page.tsx reads ?lot=).
    editUrl: `/admin/gestion-des-lots?lot=${l.id}`,
  };
}

/** One reward (its slug) or prize lot (`lot-<id>`) of the shop, or the 404. */
export async function getProduct(db: Db, access: ShopAccess, slug: string) {
  const reward = await rewardProduct(db, access, slug);
  if (reward) return reward;
  const lotId = slug.startsWith(LOT_PREFIX) ? slug.slice(LOT_PREFIX.length) : "";
  const lot = UUID.test(lotId) ? await lotProduct(db, access, lotId) : null;
  if (lot) return lot;
  throw productNotFound();
}

/**
 * Archives the product: hidden from customers and from new contests, its history kept (redemptions and winnings keep
 * their copies). A reward stops being a VIP or birthday gift. Logged. Archiving twice is the 404 of an unknown one.
 */
export async function archiveProduct(db: Db, access: ShopAccess, slug: string, ip: string | null = null) {
  const product = await getProduct(db, access, slug);
  if (product.archived) throw productNotFound();
  if (product.kind === "reward") {
    await db.transaction(async (tx) => {
      await tx.execute(sql`update vip_tiers set reward_id = null where reward_id = ${product.id}`);
      await tx.execute(
        sql`update shops set birthday_reward_id = null where id = ${access.shopId} and birthday_reward_id = ${product.id}`,
      );
      await tx.execute(
        sql`update rewards set archived_at = now(), is_active = false, updated_at = now() where id = ${product.id} and shop_id = ${access.shopId}`,
      );
    });
  } else {
    await archiveLot(db, access, product.id);
  }
  await recordAudit(db, {
    actorId: access.userId,
    shopId: access.shopId,
    action: "catalogue.archive",
    target: product.id,
    details: { kind: product.kind, title: product.title },
    ip,
  });
  return getProduct(db, access, slug);
}
