import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import { AppError } from "../../../domain/errors.ts";
import {
  parseRedemptionCode,
  REDEMPTION_STATUS_LABELS_FR,
  type RedemptionSource,
  type RedemptionStatus,
  unitLabelFr,
} from "../../../domain/loyalty/rewards.ts";
import type { CardMode } from "../../../domain/loyalty/scan-rules.ts";
import type { Database } from "../../db/client.ts";
import { profiles, redemptions, rewards, shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { rewardPhotoUrl } from "./rewards.service.ts";
import {
  closeRedemption,
  expireDueRedemptions,
  expireIfDue,
  expiresInMs,
  redemptionNotFound,
  redemptionRowColumns,
} from "./redemptions.service.ts";

/** The shop's side of redemptions: the code checked and decided at the counter, the list, what is owed. */

/** The name of the staff member who decided. */
const decidedByName = sql<string | null>`(select u.name from "user" u where u.id = ${redemptions.decidedBy})`;

async function staffRow(database: Database, access: ShopAccess, where: SQL | undefined) {
  const [row] = await database.db
    .select({
      ...redemptionRowColumns,
      decidedBy: redemptions.decidedBy,
      mode: shops.cardMode,
      firstName: profiles.firstName,
      rewardSlug: rewards.slug,
      rewardHasPhoto: sql<boolean>`${rewards.photo} is not null`,
      rewardUpdatedAt: rewards.updatedAt,
      decidedByName,
    })
    .from(redemptions)
    .innerJoin(shops, eq(shops.id, redemptions.shopId))
    .innerJoin(rewards, eq(rewards.id, redemptions.rewardId))
    .leftJoin(profiles, eq(profiles.id, redemptions.userId))
    .where(and(where, eq(redemptions.shopId, shopScope(access))))
    .orderBy(desc(redemptions.createdAt))
    .limit(1);
  return row ?? null;
}

/** What the counter and the list both show of a redemption. */
function redemptionHead(r: {
  id: string;
  code: string;
  status: RedemptionStatus;
  source: RedemptionSource;
  title: string;
  cost: number;
  mode: CardMode;
}) {
  return {
    id: r.id,
    code: r.code,
    status: r.status,
    statusLabel: REDEMPTION_STATUS_LABELS_FR[r.status],
    source: r.source,
    title: r.title,
    costLabel: r.cost > 0 ? unitLabelFr(r.mode, r.cost) : "Offert",
  };
}

function staffRedemptionDto(r: NonNullable<Awaited<ReturnType<typeof staffRow>>>) {
  return {
    ...redemptionHead(r),
    customerFirstName: r.firstName?.trim() || "Client",
    expiresAt: r.expiresAt.toISOString(),
    expiresInMs: expiresInMs(r.expiresAt),
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
    decidedByName: r.decidedByName,
    refuseReason: r.refuseReason,
    photoUrl: rewardPhotoUrl(r.rewardSlug, Boolean(r.rewardHasPhoto), r.rewardUpdatedAt),
  };
}

/**
 * A code typed or scanned at the counter. A pending one of this shop is found
 * first; a code that only another shop knows is "not found".
 */
export async function lookupRedemption(database: Database, access: ShopAccess, rawCode: string) {
  const code = parseRedemptionCode(rawCode);
  if (!code)
    throw new AppError("VALIDATION", {
      userMessage: "Ce code n'a pas le bon format : 6 lettres et chiffres.",
      fields: { code: "Code invalide." },
    });
  await expireDueRedemptions(database, { shopId: access.shopId });
  const pending = await staffRow(database, access, and(eq(redemptions.code, code), eq(redemptions.status, "pending")));
  const row = pending ?? (await staffRow(database, access, eq(redemptions.code, code)));
  if (!row)
    throw new AppError("NOT_FOUND", { userMessage: "Aucune récompense à valider avec ce code dans votre boutique." });
  return staffRedemptionDto(row);
}

async function decide(
  database: Database,
  access: ShopAccess,
  id: string,
  status: "validated" | "refused",
  reason: string | null,
) {
  const [scoped] = await database.db
    .select({ shopId: redemptions.shopId, userId: redemptions.userId })
    .from(redemptions)
    .where(and(eq(redemptions.id, id), eq(redemptions.shopId, shopScope(access))))
    .limit(1);
  if (!scoped) throw redemptionNotFound();
  // Nobody hands a reward over to themselves (nor refuses their own, which would give the points back).
  if (scoped.userId === access.userId) {
    throw new AppError("FORBIDDEN", {
      message: "staff deciding their own redemption",
      userMessage: "Vous ne pouvez pas valider ni refuser votre propre récompense : un collègue doit s'en charger.",
    });
  }
  await expireIfDue(database, id);
  const answer = await closeRedemption(database, id, status, { actorId: access.userId, reason, shopId: scoped.shopId });
  const row = await staffRow(database, access, eq(redemptions.id, id));
  if (!row) throw redemptionNotFound();
  if (!answer.closed) {
    throw new AppError("CONFLICT", {
      userMessage:
        row.status === "expired"
          ? "Trop tard : cette récompense a expiré et son solde a été rendu au client."
          : `Cette récompense est déjà ${REDEMPTION_STATUS_LABELS_FR[row.status].toLowerCase()}.`,
    });
  }
  return staffRedemptionDto(row);
}

export const validateRedemption = (database: Database, access: ShopAccess, id: string) =>
  decide(database, access, id, "validated", null);
export const refuseRedemption = (database: Database, access: ShopAccess, id: string, reason: string) =>
  decide(database, access, id, "refused", reason);

/* The owner: what is owed ------------------------------------------------------ */

export async function listShopRedemptions(
  database: Database,
  access: ShopAccess,
  q: { status: RedemptionStatus | "all"; limit: number; offset?: number },
) {
  await expireDueRedemptions(database, { shopId: access.shopId });
  const rows = await database.db
    .select({
      ...redemptionRowColumns,
      mode: shops.cardMode,
      firstName: profiles.firstName,
      lastName: profiles.lastName,
      decidedByName,
    })
    .from(redemptions)
    .innerJoin(shops, eq(shops.id, redemptions.shopId))
    .leftJoin(profiles, eq(profiles.id, redemptions.userId))
    .where(
      and(eq(redemptions.shopId, shopScope(access)), q.status === "all" ? undefined : eq(redemptions.status, q.status)),
    )
    .orderBy(desc(redemptions.createdAt), desc(redemptions.id))
    .limit(q.limit)
    .offset(q.offset ?? 0);
  return {
    redemptions: rows.map((r) => ({
      ...redemptionHead(r),
      customer: [r.firstName, r.lastName ? `${r.lastName.slice(0, 1)}.` : null].filter(Boolean).join(" ") || "Client",
      createdAt: r.createdAt.toISOString(),
      decidedAt: r.decidedAt?.toISOString() ?? null,
      expiresAt: r.expiresAt.toISOString(),
      decidedByName: r.decidedByName,
      refuseReason: r.refuseReason,
    })),
  };
}

/**
 * /admin "what is owed": rewards waiting at the counter, those handed over in the
 * last `days` days, and the points customers hold (a liability: each can become a
 * reward), with how many customers could take a reward right now.
 */
export async function getOwed(database: Database, access: ShopAccess, days = 30) {
  await expireDueRedemptions(database, { shopId: access.shopId });
  const scope = shopScope(access);
  const result = await database.db.execute<{
    mode: CardMode;
    pending_count: number;
    pending_cost: string | number;
    validated_count: number;
    validated_cost: string | number;
    outstanding: string | number;
    holders: number;
    can_redeem: number;
    cheapest: number | null;
  }>(sql`
    with s as (select id, card_mode from shops where id = ${scope}),
    cheapest as (
      select min(r.cost) as cost from rewards r, s
      where r.shop_id = s.id and r.is_active and r.archived_at is null and (r.stock is null or r.stock > 0)
    )
    select
      s.card_mode as mode,
      (select count(*)::int from redemptions d where d.shop_id = s.id and d.status = 'pending') as pending_count,
      (select coalesce(sum(d.cost), 0)::bigint from redemptions d where d.shop_id = s.id and d.status = 'pending') as pending_cost,
      (select count(*)::int from redemptions d where d.shop_id = s.id and d.status = 'validated'
         and d.decided_at > now() - make_interval(days => ${days})) as validated_count,
      (select coalesce(sum(d.cost), 0)::bigint from redemptions d where d.shop_id = s.id and d.status = 'validated'
         and d.decided_at > now() - make_interval(days => ${days})) as validated_cost,
      (select coalesce(sum(c.balance), 0)::bigint from cards c where c.shop_id = s.id) as outstanding,
      (select count(*)::int from cards c where c.shop_id = s.id and c.balance > 0) as holders,
      (select count(*)::int from cards c, cheapest where c.shop_id = s.id and cheapest.cost is not null and c.balance >= cheapest.cost) as can_redeem,
      (select cost from cheapest) as cheapest
    from s`);
  const row = result.rows[0];
  if (!row) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  const label = (n: number) => unitLabelFr(row.mode, n);
  // Sums over a whole shop are bigint (they may pass 2^31): the driver gives them as text.
  const pendingCost = Number(row.pending_cost);
  const validatedCost = Number(row.validated_cost);
  const outstanding = Number(row.outstanding);
  return {
    days,
    mode: row.mode,
    pending: { count: row.pending_count, cost: pendingCost, costLabel: label(pendingCost) },
    validated: { count: row.validated_count, cost: validatedCost, costLabel: label(validatedCost) },
    outstanding: { points: outstanding, label: label(outstanding), holders: row.holders },
    canRedeemNow: row.can_redeem,
    cheapestRewardLabel: row.cheapest === null ? null : label(row.cheapest),
  };
}

/** For the SSE stream: the bits of a redemption that change. */
