import { sql } from "drizzle-orm";
import { z } from "zod";
import { AUTOMATION_INFO, AUTOMATION_KINDS, type AutomationKind } from "../../../domain/messages/automations.ts";
import type { Db } from "../../db/client.ts";
import { cappedTotal, LIST_COUNT_CAP } from "../../lib/list-page.ts";

/**
 * Issue 27 item 4: the platform admin's view of retention across shops (/admin?vue=boutiques) — each shop's rhythm
 * figures as the job retention.fold keeps them (shop_rhythms: median days between visits, regulars, at risk; never a
 * pass over a shop's cards at view time) — and what each shop's automations did over the last 30 days: sent, held
 * out, and how many of each came back (the occasions' measured rows, ADR 0046). The same, summed, for the platform.
 */
const PLATFORM_RETENTION_DAYS = 30;

export const platformRetentionQuery = z.object({
  limit: z.coerce.number().int().min(1, "Au moins 1.").max(100, "Au plus 100.").default(20),
  offset: z.coerce.number().int().min(0, "Au moins 0.").default(0),
});

type Volumes = { sent: number; heldOut: number; returned: number; heldOutReturned: number };

type VolumeRow = {
  shop_id: string | null;
  kind: AutomationKind;
  enabled: boolean | null;
  sent: number;
  held_out: number;
  returned: number;
  held_out_returned: number;
};

const volumes = (r: VolumeRow): Volumes => ({
  sent: Number(r.sent),
  heldOut: Number(r.held_out),
  returned: Number(r.returned),
  heldOutReturned: Number(r.held_out_returned),
});

/** The counts of a set of occasions (`o`): sent or held out, and of each, who came back. */
const COUNTS = sql`count(o.id) filter (where not o.holdout)::int as sent,
  count(o.id) filter (where o.holdout)::int as held_out,
  count(o.id) filter (where not o.holdout and o.visits > 0)::int as returned,
  count(o.id) filter (where o.holdout and o.visits > 0)::int as held_out_returned`;

export async function platformRetention(db: Db, q: z.output<typeof platformRetentionQuery>, now: Date) {
  const since = sql`(${now.toISOString()}::timestamptz - make_interval(days => ${PLATFORM_RETENTION_DAYS}))`;
  // The shops with something to show: a rhythm kept, or an automation on.
  const listed = sql`s.deleted_at is null and (exists (select 1 from shop_rhythms r where r.shop_id = s.id)
    or exists (select 1 from automations a where a.shop_id = s.id and a.enabled))`;
  const [page, count, totals, byKind] = await Promise.all([
    db.execute<{
      id: string;
      name: string;
      slug: string;
      city: string;
      status: "active" | "suspended";
      customers: number;
      median_days: number | null;
      regulars: number | null;
      at_risk: number | null;
      computed_at: Date | string | null;
    }>(sql`
      with page as (
        select s.id, s.name, s.slug, s.city, s.status, r.median_days, r.regulars, r.at_risk, r.computed_at
        from shops s left join shop_rhythms r on r.shop_id = s.id
        where ${listed}
        order by coalesce(r.regulars, 0) desc, s.id
        limit ${q.limit} offset ${q.offset}
      )
      select page.*, (select count(*)::int from cards c where c.shop_id = page.id) as customers
      from page order by coalesce(page.regulars, 0) desc, page.id`),
    db.execute<{ n: number }>(sql`
      select count(*)::int as n from (select 1 from shops s where ${listed} limit ${LIST_COUNT_CAP + 1}) x`),
    db.execute<{ shops: number; regulars: number; at_risk: number }>(sql`
      select count(*)::int as shops, coalesce(sum(r.regulars), 0)::int as regulars,
        coalesce(sum(r.at_risk), 0)::int as at_risk
      from shop_rhythms r join shops s on s.id = r.shop_id where s.deleted_at is null`),
    db.execute<VolumeRow>(sql`
      select null as shop_id, a.kind, null as enabled, ${COUNTS}
      from automation_occasions o join automations a on a.id = o.automation_id
      where o.decided_at >= ${since} and not o.manual
      group by a.kind`),
  ]);
  const ids = page.rows.map((r) => r.id);
  const perShop = ids.length
    ? (
        await db.execute<VolumeRow>(sql`
          select a.shop_id, a.kind, a.enabled, ${COUNTS}
          from automations a left join automation_occasions o on o.automation_id = a.id
            and o.decided_at >= ${since} and not o.manual
          where a.shop_id in (${sql.join(
            ids.map((id) => sql`${id}`),
            sql`, `,
          )})
          group by a.shop_id, a.kind, a.enabled`)
      ).rows
    : [];
  const [sum] = totals.rows;
  return {
    days: PLATFORM_RETENTION_DAYS,
    totals: {
      shops: Number(sum?.shops ?? 0),
      regulars: Number(sum?.regulars ?? 0),
      atRisk: Number(sum?.at_risk ?? 0),
      automations: AUTOMATION_KINDS.map((kind) => {
        const row = byKind.rows.find((r) => r.kind === kind);
        return {
          kind,
          label: AUTOMATION_INFO[kind].label,
          ...(row ? volumes(row) : { sent: 0, heldOut: 0, returned: 0, heldOutReturned: 0 }),
        };
      }),
    },
    shops: page.rows.map((r) => ({
      id: r.id,
      name: r.name,
      slug: r.slug,
      city: r.city,
      status: r.status,
      customers: Number(r.customers),
      medianDaysBetweenVisits: r.median_days === null ? null : Math.round(Number(r.median_days) * 10) / 10,
      regulars: r.regulars === null ? null : Number(r.regulars),
      atRisk: r.at_risk === null ? null : Number(r.at_risk),
      computedAt: r.computed_at === null ? null : new Date(r.computed_at).toISOString(),
      // Its automations on, or that sent or held out something in the period, in the page's order.
      automations: AUTOMATION_KINDS.flatMap((kind) => {
        const row = perShop.find((x) => x.shop_id === r.id && x.kind === kind);
        if (!row || (!row.enabled && Number(row.sent) + Number(row.held_out) === 0)) return [];
        return [{ kind, label: AUTOMATION_INFO[kind].label, enabled: Boolean(row.enabled), ...volumes(row) }];
      }),
    })),
    ...cappedTotal(Number(count.rows[0]?.n ?? 0)),
  };
}
