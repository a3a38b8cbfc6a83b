import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { localParts } from "../../../domain/loyalty/time.ts";
import { checkMobileNumber, toE164 } from "../../../domain/sms/phone.ts";
import { countSegments } from "../../../domain/sms/segments.ts";
import {
  DEFAULT_SEND_WINDOW,
  nextWindowOpening,
  parseDays,
  parseHours,
  type SendWindow,
} from "../../../domain/sms/send-window.ts";
import { isStopReply, STOP_REPLY_WORDING } from "../../../domain/sms/text.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import type { SmsProvider, SmsResult } from "./providers.ts";

/** The marketing send window the operator set (env), defaults of src/domain/sms/send-window.ts. */
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
    kind: "test" | "campaign";
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

export const budgetSchema = z.object({
  monthlySegments: z
    .number({ error: "Indiquez un nombre de SMS." })
    .int("Un nombre entier, s'il vous plaît.")
    .min(0, "Le budget ne peut pas être négatif."),
});

export const testSmsSchema = z.object({
  to: z
    .string({ error: "Indiquez un numéro de mobile." })
    .max(40, "Ce numéro est trop long.")
    .transform((value, ctx) => {
      const check = checkMobileNumber(value);
      if (!check.ok) {
        ctx.addIssue({ code: "custom", message: check.message });
        return z.NEVER;
      }
      return check.e164;
    }),
  text: z
    .string({ error: "Écrivez le texte du SMS." })
    .trim()
    .min(1, "Écrivez le texte du SMS.")
    .max(918, "Un SMS de test tient en 918 caractères (6 SMS) au plus."),
});

async function ownShop(db: Db, access: ShopAccess) {
  const rows = await db.execute<{ id: string; name: string }>(
    sql`select s.id, s.name from shops s where s.id = ${shopScope(access)}`,
  );
  const shop = rows.rows[0];
  if (!shop) throw new AppError("NOT_FOUND", { userMessage: "Boutique introuvable." });
  return shop;
}

/** What /admin/test-sms shows: the gateway, the STOP number, the budget of the month, the send window. */
export async function smsOverview(db: Db, access: ShopAccess, env: Env, provider: SmsProvider, now: Date) {
  await ownShop(db, access);
  const window = sendWindowOf(env);
  const budget = await budgetOf(db, access.shopId, budgetMonth(now, window.timeZone));
  const opening = nextWindowOpening(now, window);
  return {
    provider: provider.name,
    stopNumber: provider.stopNumber,
    sender: env.SMS_SENDER ?? null,
    budget: { ...budget, max: env.SMS_MONTHLY_SEGMENTS_MAX },
    window: {
      days: window.days,
      from: window.from,
      to: window.to,
      onHolidays: window.onHolidays,
      timeZone: window.timeZone,
      openNow: opening.getTime() === now.getTime(),
      nextOpening: opening.toISOString(),
    },
  };
}

export async function setBudget(
  db: Db,
  access: ShopAccess,
  env: Env,
  input: z.output<typeof budgetSchema>,
  ip: string | null,
) {
  await ownShop(db, access);
  if (input.monthlySegments > env.SMS_MONTHLY_SEGMENTS_MAX) {
    throw new AppError("VALIDATION", {
      userMessage: `Le budget ne peut pas dépasser ${env.SMS_MONTHLY_SEGMENTS_MAX} SMS par mois sur cette plateforme.`,
      fields: { monthlySegments: `${env.SMS_MONTHLY_SEGMENTS_MAX} SMS par mois au plus.` },
    });
  }
  await db.execute(sql`
    insert into sms_budgets (shop_id, monthly_segments, updated_at)
    values (${access.shopId}, ${input.monthlySegments}, now())
    on conflict (shop_id) do update set monthly_segments = excluded.monthly_segments, updated_at = now()`);
  await recordAudit(db, {
    actorId: access.userId,
    shopId: access.shopId,
    action: "sms.budget",
    details: { monthlySegments: input.monthlySegments },
    ip,
  });
}

/**
 * /admin/test-sms: one SMS, sent as typed (a transactional test, no STOP mention),
 * counted in the month's budget like any other, with what the gateway answered.
 */
export async function sendTestSms(
  db: Db,
  access: ShopAccess,
  env: Env,
  provider: SmsProvider,
  input: z.output<typeof testSmsSchema>,
  now: Date,
) {
  await ownShop(db, access);
  const count = countSegments(input.text);
  const month = budgetMonth(now, sendWindowOf(env).timeZone);
  if (!(await reserveSegments(db, access.shopId, month, count.segments))) {
    throw new AppError("CONFLICT", {
      userMessage:
        "Le budget SMS de ce mois est atteint (ou n'est pas encore fixé) : augmentez-le pour envoyer ce test.",
    });
  }
  const result = await sendAndRecord(db, provider, {
    shopId: access.shopId,
    kind: "test",
    to: input.to,
    text: input.text,
    marketing: false,
    segments: count.segments,
  });
  if (!result.ok) await refundSegments(db, access.shopId, month, count.segments);
  return {
    ok: result.ok,
    provider: provider.name,
    status: result.status,
    answer: result.answer,
    providerId: result.ok ? result.id : null,
    segments: count.segments,
    encoding: count.encoding,
    nonGsm: count.nonGsm,
    budget: await budgetOf(db, access.shopId, month),
  };
}

/**
 * A reply received by the gateway (its webhook). "STOP" (or ARRET…) from a number
 * withdraws the SMS consent of every account with that number: a consent row like any
 * other, with the wording « STOP reçu par SMS ». Anything else is ignored.
 */
export async function handleInboundSms(db: Db, inbound: { from: string; text: string }) {
  if (!isStopReply(inbound.text)) return { stop: false, unsubscribed: 0 };
  const phone = toE164(inbound.from);
  if (!phone) return { stop: true, unsubscribed: 0 };
  const rows = await db.execute<{ id: string }>(sql`
    insert into consents (user_id, channel, granted, wording)
    select f.id, 'sms', false, ${STOP_REPLY_WORDING} from profiles f
    where f.phone = ${phone}
      and coalesce((select k.granted from consents k where k.user_id = f.id and k.channel = 'sms'
        order by k.created_at desc limit 1), false)
    returning user_id as id`);
  return { stop: true, unsubscribed: rows.rows.length };
}

/** The gateway's webhook body: SMS Gateway for Android ({ event, payload: { phoneNumber, message } }) or { from, text }. */
export const inboundSchema = z.union([
  z.object({
    event: z.string().max(50),
    payload: z.object({ phoneNumber: z.string().max(40), message: z.string().max(2000) }),
  }),
  z.object({ from: z.string().max(40), text: z.string().max(2000) }),
]);

export function inboundOf(body: z.output<typeof inboundSchema>): { from: string; text: string } | null {
  if ("payload" in body)
    return body.event === "sms:received" ? { from: body.payload.phoneNumber, text: body.payload.message } : null;
  return body;
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * The webhook's shared secret (SMS_WEBHOOK_SECRET): given as a header or in the
 * address (?secret=, for gateways that only let one set a URL), or as SMS Gateway for
 * Android signs its webhooks (X-Signature: HMAC-SHA256 of the body then X-Timestamp,
 * within 5 minutes). Without a secret configured, the webhook is closed.
 */
export function webhookAuthorised(
  secret: string | undefined,
  request: {
    header: (name: string) => string | undefined;
    query: (name: string) => string | undefined;
    rawBody: string;
  },
  now = Date.now(),
): boolean {
  if (!secret) return false;
  const given = request.header("x-webhook-secret") ?? request.query("secret");
  if (given !== undefined) return same(given, secret);
  const signature = request.header("x-signature");
  const timestamp = request.header("x-timestamp");
  if (!signature || !timestamp || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(now / 1000 - Number(timestamp)) > 300) return false;
  const expected = createHmac("sha256", secret)
    .update(request.rawBody + timestamp)
    .digest("hex");
  return same(signature.toLowerCase(), expected);
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
    kind: r.kind as "test" | "campaign",
    provider: r.provider,
    status: r.status as "kept" | "sent" | "failed",
    segments: r.segments,
    answer: r.answer,
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
