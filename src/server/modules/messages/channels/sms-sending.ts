import { sql } from "drizzle-orm";
import { localParts } from "../../../../domain/loyalty/time.ts";
import {
  DEFAULT_SEND_WINDOW,
  parseDays,
  parseHours,
  type SendWindow,
} from "../../../../domain/messages/send-window.ts";
import type { Db } from "../../../db/client.ts";
import type { Env } from "../../../env.ts";
import type { SmsProvider, SmsResult } from "./sms-gateways.ts";

/**
 * What every SMS goes through, a campaign's (sms-driver.ts), a verification code's or a test's (sms.service.ts):
 * the operator's send window, the shop's monthly budget reserved before it leaves, the gateway, the outbox row.
 */
/** The marketing send window the operator set (env), defaults of src/domain/messages/send-window.ts. */
export function sendWindowOf(
  env: Pick<Env, "SMS_SEND_DAYS" | "SMS_SEND_HOURS" | "SMS_SEND_ON_HOLIDAYS" | "SMS_TIMEZONE">,
): SendWindow {
  const hours = parseHours(env.SMS_SEND_HOURS) ?? DEFAULT_SEND_WINDOW;
  return {
    days: parseDays(env.SMS_SEND_DAYS) ?? DEFAULT_SEND_WINDOW.days,
    from: hours.from,
    to: hours.to,
    timeZone: env.SMS_TIMEZONE,
    onHolidays: env.SMS_SEND_ON_HOLIDAYS,
  };
}

/** The budget's month ("2026-11") of an instant, in the send window's time zone. */
export const budgetMonth = (now: Date, timeZone: string) => localParts(now, timeZone).date.slice(0, 7);

/**
 * Reserves `segments` of a shop's monthly budget, atomically: one conditional upsert.
 * Concurrent reservations queue on the row's lock and each re-reads the latest row
 * before its condition, so the month's total never exceeds the budget (a budget
 * lowered below what is spent simply stops further sends).
 */
export async function reserveSegments(db: Db, shopId: string, month: string, segments: number): Promise<boolean> {
  const budget = sql`coalesce((select b.monthly_segments from sms_budgets b where b.shop_id = ${shopId}), 0)`;
  const rows = await db.execute<{ segments: number }>(sql`
    insert into sms_usage as u (shop_id, month, segments)
    select ${shopId}, ${month}, ${segments}::int where ${segments}::int <= ${budget}
    on conflict (shop_id, month) do update set segments = u.segments + excluded.segments
      where u.segments + excluded.segments <= ${budget}
    returning u.segments`);
  return rows.rows.length > 0;
}

/** Gives back what a send that did not leave had reserved. */
export async function refundSegments(db: Db, shopId: string, month: string, segments: number) {
  await db.execute(sql`
    update sms_usage set segments = greatest(0, segments - ${segments}::int) where shop_id = ${shopId} and month = ${month}`);
}

export async function budgetOf(db: Db, shopId: string, month: string) {
  const rows = await db.execute<{ monthly: number | null; used: number | null }>(sql`
    select (select monthly_segments from sms_budgets where shop_id = ${shopId}) as monthly,
      (select segments from sms_usage where shop_id = ${shopId} and month = ${month}) as used`);
  const row = rows.rows[0];
  return { month, monthlySegments: Number(row?.monthly ?? 0), usedSegments: Number(row?.used ?? 0) };
}

/**
 * Sends one SMS through the gateway and records it in the outbox with the answer.
 * Never throws for a gateway failure: the result says what happened.
 */
export async function sendAndRecord(
  db: Db,
  provider: SmsProvider,
  sms: {
    shopId: string | null;
    kind: "test" | "campaign" | "verification";
    to: string;
    text: string;
    marketing: boolean;
    segments: number;
  },
): Promise<SmsResult> {
  const result = await provider.send({ to: sms.to, text: sms.text, marketing: sms.marketing });
  const status = provider.name === "outbox" ? "kept" : result.ok ? "sent" : "failed";
  await db.execute(sql`
    insert into sms_outbox (shop_id, "to", text, kind, provider, status, segments, answer, provider_id)
    values (${sms.shopId}, ${sms.to}, ${sms.text}, ${sms.kind}, ${provider.name}, ${status}, ${sms.segments},
      ${result.answer}, ${result.ok ? result.id : null})`);
  return result;
}
