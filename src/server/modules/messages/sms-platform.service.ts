import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import { isSmsSpike, SPIKE_BASELINE_DAYS } from "../../../domain/messages/sms-spike.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { recordAudit } from "../../lib/audit.ts";
import { budgetMonth, sendWindowOf } from "./channels/sms-sending.ts";
import { type RequestRow, requestOf, segmentsCount, tooMuch } from "./sms.service.ts";

/** The platform admin's side of SMS (ADR 0032): the budgets granted, the volume per shop, the outbox. */

/** The platform admin grants a shop's monthly budget (ADR 0032). */
export const grantBudgetSchema = z.object({ monthlySegments: segmentsCount });

/** The platform admin sets a shop's monthly budget (and so answers its request), audited "sms.budget". */
export async function grantBudget(
  db: Db,
  env: Env,
  adminId: string,
  shopId: string,
  input: z.output<typeof grantBudgetSchema>,
  ip: string | null,
) {
  const shop = await db.execute(sql`select 1 from shops where id = ${shopId}`);
  if (shop.rows.length === 0) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  if (input.monthlySegments > env.SMS_MONTHLY_SEGMENTS_MAX) throw tooMuch(env);
  const before = (
    await db.execute<{ monthly_segments: number; requested_segments: number | null }>(
      sql`select monthly_segments, requested_segments from sms_budgets where shop_id = ${shopId}`,
    )
  ).rows[0];
  await db.execute(sql`
    insert into sms_budgets (shop_id, monthly_segments, updated_at)
    values (${shopId}, ${input.monthlySegments}, now())
    on conflict (shop_id) do update set monthly_segments = excluded.monthly_segments, updated_at = now(),
      requested_segments = null, request_note = null, requested_at = null`);
  await recordAudit(db, {
    actorId: adminId,
    shopId,
    action: "sms.budget",
    details: {
      monthlySegments: input.monthlySegments,
      previous: Number(before?.monthly_segments ?? 0),
      requested: before?.requested_segments ?? null,
    },
    ip,
  });
}

export async function listSmsOutbox(db: Db, limit = 100) {
  const rows = await db.execute<{
    id: string;
    shop_name: string | null;
    to: string;
    text: string;
    kind: string;
    provider: string;
    status: string;
    segments: number;
    answer: string | null;
    created_at: Date | string;
  }>(sql`
    select o.id, s.name as shop_name, o."to", o.text, o.kind, o.provider, o.status, o.segments, o.answer, o.created_at
    from sms_outbox o left join shops s on s.id = o.shop_id order by o.created_at desc limit ${limit}`);
  return rows.rows.map((r) => ({
    id: r.id,
    shopName: r.shop_name,
    to: r.to,
    text: r.text,
    kind: r.kind as "test" | "campaign" | "verification",
    provider: r.provider,
    status: r.status as "kept" | "sent" | "failed",
    segments: r.segments,
    answer: r.answer,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}

/**
 * The platform console's SMS per shop (ADR 0032): the budget granted and asked for, the
 * segments of the month (sms_usage) and of today, the daily mean of the 28 days before
 * (sms_outbox, failed sends excluded; days in SMS_TIMEZONE), and the spike alert
 * (domain/messages/sms-spike.ts). Shops with a budget row or an SMS in the period; alerts first,
 * then requests, then by the month's volume.
 */
export async function smsVolume(db: Db, env: Env, now: Date) {
  const tz = sendWindowOf(env).timeZone;
  const today = localParts(now, tz).date;
  const dayStart = zonedToUtc(today, 0, tz).toISOString();
  const baselineStart = zonedToUtc(addDays(today, -SPIKE_BASELINE_DAYS), 0, tz).toISOString();
  const rows = await db.execute<
    RequestRow & {
      id: string;
      name: string;
      monthly: number | null;
      month_used: number | null;
      today: number;
      baseline: number;
    }
  >(sql`
    select s.id, s.name, b.monthly_segments as monthly, b.requested_segments, b.request_note, b.requested_at,
      u.segments as month_used,
      coalesce((select sum(o.segments) from sms_outbox o where o.shop_id = s.id and o.status <> 'failed'
        and o.created_at >= ${dayStart}::timestamptz), 0)::int as today,
      coalesce((select sum(o.segments) from sms_outbox o where o.shop_id = s.id and o.status <> 'failed'
        and o.created_at >= ${baselineStart}::timestamptz and o.created_at < ${dayStart}::timestamptz), 0)::int as baseline
    from shops s
    left join sms_budgets b on b.shop_id = s.id
    left join sms_usage u on u.shop_id = s.id and u.month = ${budgetMonth(now, tz)}
    where b.shop_id is not null
      or exists (select 1 from sms_outbox o where o.shop_id = s.id and o.created_at >= ${baselineStart}::timestamptz)`);
  const rule = { factor: env.SMS_SPIKE_FACTOR, minSegments: env.SMS_SPIKE_MIN_SEGMENTS };
  const shops = rows.rows.map((r) => {
    const baseline = Number(r.baseline);
    return {
      id: r.id,
      name: r.name,
      monthlySegments: Number(r.monthly ?? 0),
      monthSegments: Number(r.month_used ?? 0),
      todaySegments: Number(r.today),
      usualPerDay: Math.round((baseline / SPIKE_BASELINE_DAYS) * 10) / 10,
      spike: isSmsSpike(Number(r.today), baseline, rule),
      request: requestOf(r),
    };
  });
  shops.sort(
    (a, b) =>
      Number(b.spike) - Number(a.spike) ||
      Number(b.request !== null) - Number(a.request !== null) ||
      b.monthSegments - a.monthSegments ||
      a.name.localeCompare(b.name, "fr"),
  );
  return { rule: { ...rule, baselineDays: SPIKE_BASELINE_DAYS }, max: env.SMS_MONTHLY_SEGMENTS_MAX, shops };
}
