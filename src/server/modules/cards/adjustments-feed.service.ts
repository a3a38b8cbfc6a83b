import { eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { personName } from "../../../domain/format.ts";
import {
  ADJUSTMENT_STATUS_LABELS_FR,
  type AdjustmentAlert,
  type AdjustmentStatus,
  adjustmentAlertLabelFr,
  adjustmentCap,
} from "../../../domain/loyalty/adjustments.ts";
import { shopRoleLabel } from "../../../domain/roles.ts";
import type { adjustmentsQuerySchema } from "../../../domain/schemas/cards.ts";
import type { Db } from "../../db/client.ts";
import { shops } from "../../db/schema/index.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";

/** The owner's feed of corrections (issue 22, row 17; ADR 0036); the corrections themselves: adjustments.service.ts. */

type FeedRow = {
  id: string;
  card_id: string;
  delta: number;
  reason: string;
  status: AdjustmentStatus;
  kind: "adjustment" | "adjustment_balance";
  alerts: AdjustmentAlert[];
  created_at: Date | string;
  decided_at: Date | string | null;
  actor_id: string;
  actor_name: string | null;
  actor_role: string | null;
  decider_name: string | null;
  customer_id: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
};

/** The owner's feed: pending requests first, then every correction, newest first; with the shop's rules. */
export async function listAdjustments(db: Db, access: ShopAccess, q: z.output<typeof adjustmentsQuerySchema>) {
  const [rules] = await db
    .select({
      cardMode: shops.cardMode,
      pointsPerVisit: shops.pointsPerVisit,
      adjustmentLimit: shops.adjustmentLimit,
      staffAdjustmentsPerDay: shops.staffAdjustmentsPerDay,
      staffAdjustmentsLifetime: shops.staffAdjustmentsLifetime,
    })
    .from(shops)
    .where(eq(shops.id, shopScope(access)));
  if (!rules) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  const cap = adjustmentCap(rules);
  const result = await db.execute<FeedRow>(sql`
    select a.id, a.card_id, a.delta, a.reason, a.status, a.kind, a.alerts, a.created_at, a.decided_at, a.actor_id,
           au.name as actor_name, am.role as actor_role, du.name as decider_name,
           c.user_id as customer_id, p.first_name, p.last_name, u.email
    from adjustments a
    join cards c on c.id = a.card_id
    left join "user" u on u.id = c.user_id
    left join profiles p on p.id = c.user_id
    left join "user" au on au.id = a.actor_id
    left join member am on am.organization_id = a.shop_id and am.user_id = a.actor_id
    left join "user" du on du.id = a.decided_by
    where a.shop_id = ${shopScope(access)}
      ${q.status ? sql`and a.status = ${q.status}` : sql``}
      ${q.alerts ? sql`and cardinality(a.alerts) > 0` : sql``}
    order by (a.status = 'pending') desc, a.created_at desc, a.id desc
    limit ${q.limit}`);
  const [counts] = (
    await db.execute<{ pending: number }>(sql`
      select count(*)::int as pending from adjustments where shop_id = ${shopScope(access)} and status = 'pending'`)
  ).rows;
  const iso = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
  return {
    rules: { cap, perDay: rules.staffAdjustmentsPerDay, countsLifetime: rules.staffAdjustmentsLifetime },
    pending: counts?.pending ?? 0,
    adjustments: result.rows.map((r) => ({
      id: r.id,
      cardId: r.card_id,
      delta: r.delta,
      reason: r.reason,
      status: r.status,
      statusLabel: ADJUSTMENT_STATUS_LABELS_FR[r.status],
      countsLifetime: r.kind === "adjustment",
      alerts: r.alerts,
      alertLabels: r.alerts.map((a) =>
        adjustmentAlertLabelFr(a, { cap, perDay: rules.staffAdjustmentsPerDay, mode: rules.cardMode }),
      ),
      createdAt: iso(r.created_at) as string,
      decidedAt: iso(r.decided_at),
      author: {
        id: r.actor_id,
        name: r.actor_name ?? "Ancien membre de l'équipe",
        roleLabel: r.actor_role ? shopRoleLabel(r.actor_role) : null,
      },
      decidedBy: r.decider_name,
      customer: {
        id: r.customer_id,
        name:
          r.customer_id === null
            ? "Compte supprimé"
            : personName({ firstName: r.first_name, lastName: r.last_name, email: r.email }),
        email: r.email,
      },
    })),
  };
}
