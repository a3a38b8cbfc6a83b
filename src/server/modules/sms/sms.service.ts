import { createHash, createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { addDays, localParts, zonedToUtc } from "../../../domain/loyalty/time.ts";
import { checkMobileNumber, formatPhone, toE164 } from "../../../domain/sms/phone.ts";
import { countSegments } from "../../../domain/sms/segments.ts";
import {
  DEFAULT_SEND_WINDOW,
  nextWindowOpening,
  parseDays,
  parseHours,
  type SendWindow,
} from "../../../domain/sms/send-window.ts";
import { isSmsSpike, SPIKE_BASELINE_DAYS } from "../../../domain/sms/spike.ts";
import { isStopReply, STOP_REPLY_WORDING } from "../../../domain/sms/text.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type ShopAccess, shopScope } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
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

const segmentsCount = z
  .number({ error: "Indiquez un nombre de SMS." })
  .int("Un nombre entier, s'il vous plaît.")
  .min(0, "Le budget ne peut pas être négatif.");

/** The platform admin grants a shop's monthly budget (ADR 0032). */
export const grantBudgetSchema = z.object({ monthlySegments: segmentsCount });

/** The owner asks the platform admin for a monthly budget. */
export const budgetRequestSchema = z.object({
  monthlySegments: segmentsCount.min(1, "Demandez au moins 1 SMS par mois."),
  note: z.string().trim().max(500, "500 caractères au plus.").default(""),
});

const mobileNumber = z
  .string({ error: "Indiquez un numéro de mobile." })
  .max(40, "Ce numéro est trop long.")
  .transform((value, ctx) => {
    const check = checkMobileNumber(value);
    if (!check.ok) {
      ctx.addIssue({ code: "custom", message: check.message });
      return z.NEVER;
    }
    return check.e164;
  });

/** The owner's own number, to be verified by a code sent to it. */
export const phoneSchema = z.object({ phone: mobileNumber });
export const phoneCodeSchema = z.object({
  code: z
    .string({ error: "Indiquez le code reçu." })
    .trim()
    .regex(/^\d{6}$/, "Le code a 6 chiffres."),
});

/** A test SMS: to the owner's verified number only (`to`, when given, must be it). */
export const testSmsSchema = z.object({
  to: mobileNumber.optional(),
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

/** The owner's verified number and the one waiting for its code. */
async function ownerPhone(db: Db, userId: string) {
  const rows = await db.execute<{ verified_phone: string | null; pending_phone: string | null; fresh: boolean }>(sql`
    select verified_phone, pending_phone, coalesce(code_expires_at > now(), false) as fresh
    from sms_owner_phones where user_id = ${userId}`);
  const row = rows.rows[0];
  return { verified: row?.verified_phone ?? null, pending: row?.fresh ? (row.pending_phone ?? null) : null };
}

type RequestRow = {
  requested_segments: number | null;
  request_note: string | null;
  requested_at: Date | string | null;
};

/** An owner's pending budget request (sms_budgets.requested_*), or null. */
const requestOf = (r: RequestRow) =>
  r.requested_segments != null && r.requested_at
    ? {
        monthlySegments: Number(r.requested_segments),
        note: r.request_note ?? "",
        at: new Date(r.requested_at).toISOString(),
      }
    : null;

/** What /admin/test-sms shows: the gateway, the STOP number, the budget granted and asked for, the owner's number, the send window. */
export async function smsOverview(db: Db, access: ShopAccess, env: Env, provider: SmsProvider, now: Date) {
  await ownShop(db, access);
  const window = sendWindowOf(env);
  const budget = await budgetOf(db, access.shopId, budgetMonth(now, window.timeZone));
  const opening = nextWindowOpening(now, window);
  const request = (
    await db.execute<RequestRow>(
      sql`select requested_segments, request_note, requested_at from sms_budgets where shop_id = ${access.shopId}`,
    )
  ).rows[0];
  const phone = await ownerPhone(db, access.userId);
  return {
    provider: provider.name,
    stopNumber: provider.stopNumber,
    sender: env.SMS_SENDER ?? null,
    budget: { ...budget, max: env.SMS_MONTHLY_SEGMENTS_MAX },
    request: request ? requestOf(request) : null,
    phone: {
      verified: phone.verified ? formatPhone(phone.verified) : null,
      pending: phone.pending ? formatPhone(phone.pending) : null,
      codeMinutes: SMS_CODE_MINUTES,
    },
    testsPerHour: env.SMS_TESTS_PER_HOUR,
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

const tooMuch = (env: Env) =>
  new AppError("VALIDATION", {
    userMessage: `Le budget ne peut pas dépasser ${env.SMS_MONTHLY_SEGMENTS_MAX} SMS par mois sur cette plateforme.`,
    fields: { monthlySegments: `${env.SMS_MONTHLY_SEGMENTS_MAX} SMS par mois au plus.` },
  });

/** The owner asks for a monthly budget: kept beside the shop's budget until the platform admin decides. */
export async function requestBudget(
  db: Db,
  access: ShopAccess,
  env: Env,
  input: z.output<typeof budgetRequestSchema>,
  ip: string | null,
) {
  await ownShop(db, access);
  if (input.monthlySegments > env.SMS_MONTHLY_SEGMENTS_MAX) throw tooMuch(env);
  await db.execute(sql`
    insert into sms_budgets (shop_id, monthly_segments, requested_segments, request_note, requested_at)
    values (${access.shopId}, 0, ${input.monthlySegments}, ${input.note}, now())
    on conflict (shop_id) do update set requested_segments = excluded.requested_segments,
      request_note = excluded.request_note, requested_at = excluded.requested_at`);
  await recordAudit(db, {
    actorId: access.userId,
    shopId: access.shopId,
    action: "sms.budget_request",
    details: { monthlySegments: input.monthlySegments },
    ip,
  });
}

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

/** A verification code lives this long, allows this many tries, and a person may ask for this many an hour. */
export const SMS_CODE_MINUTES = 10;
export const SMS_CODE_TRIES = 5;
export const SMS_CODES_PER_HOUR = 3;

const hashCode = (userId: string, code: string) => createHash("sha256").update(`${userId}:${code}`).digest("hex");

const noBudget = (what: string) =>
  new AppError("CONFLICT", {
    userMessage: `Le budget SMS de ce mois est atteint ou n'a pas encore été accordé par l'administrateur de la plateforme : ${what} ne peut pas partir. Demandez un budget ci-dessous.`,
  });

/**
 * Sends a code to the number the owner says is theirs. Throttled (a few an hour), counted
 * in the shop's budget like any SMS: a shop without a granted budget sends nothing.
 */
export async function sendPhoneCode(
  db: Db,
  access: ShopAccess,
  env: Env,
  provider: SmsProvider,
  input: z.output<typeof phoneSchema>,
  now: Date,
) {
  await ownShop(db, access);
  await enforceThrottle(db, `sms-code:${access.userId}`, 3600, SMS_CODES_PER_HOUR);
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  const text = `Fidèle : votre code de vérification est ${code}. Il expire dans ${SMS_CODE_MINUTES} minutes.`;
  const segments = countSegments(text).segments;
  const month = budgetMonth(now, sendWindowOf(env).timeZone);
  if (!(await reserveSegments(db, access.shopId, month, segments))) throw noBudget("le code");
  await db.execute(sql`
    insert into sms_owner_phones (user_id, pending_phone, code_hash, code_expires_at, attempts)
    values (${access.userId}, ${input.phone}, ${hashCode(access.userId, code)},
      now() + make_interval(mins => ${SMS_CODE_MINUTES}), 0)
    on conflict (user_id) do update set pending_phone = excluded.pending_phone, code_hash = excluded.code_hash,
      code_expires_at = excluded.code_expires_at, attempts = 0`);
  const result = await sendAndRecord(db, provider, {
    shopId: access.shopId,
    kind: "verification",
    to: input.phone,
    text,
    marketing: false,
    segments,
  });
  if (!result.ok) {
    await refundSegments(db, access.shopId, month, segments);
    throw new AppError("CONFLICT", { userMessage: "La passerelle a refusé le SMS du code. Réessayez plus tard." });
  }
  return { sentTo: formatPhone(input.phone), minutes: SMS_CODE_MINUTES };
}

/** The code received: the pending number becomes the owner's verified one. Each try counts; a few per code. */
export async function confirmPhoneCode(
  db: Db,
  access: ShopAccess,
  input: z.output<typeof phoneCodeSchema>,
  ip: string | null,
) {
  await ownShop(db, access);
  const tried = await db.execute<{ code_hash: string }>(sql`
    update sms_owner_phones set attempts = attempts + 1
    where user_id = ${access.userId} and pending_phone is not null and code_expires_at > now()
      and attempts < ${SMS_CODE_TRIES}
    returning code_hash`);
  const row = tried.rows[0];
  if (!row) {
    throw new AppError("VALIDATION", {
      userMessage: "Ce code a expiré ou a été trop essayé : demandez-en un nouveau.",
      fields: { code: "Code expiré : demandez-en un nouveau." },
    });
  }
  const expected = Buffer.from(row.code_hash, "hex");
  const given = Buffer.from(hashCode(access.userId, input.code), "hex");
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new AppError("VALIDATION", { userMessage: "Code incorrect.", fields: { code: "Code incorrect." } });
  }
  await db.execute(sql`
    update sms_owner_phones set verified_phone = pending_phone, verified_at = now(), pending_phone = null,
      code_hash = null, code_expires_at = null, attempts = 0
    where user_id = ${access.userId}`);
  await recordAudit(db, { actorId: access.userId, shopId: access.shopId, action: "sms.phone_verified", ip });
}

/**
 * /admin/test-sms: one SMS, sent as typed (a transactional test, no STOP mention) to the
 * owner's verified number only, a few an hour, counted in the month's budget like any
 * other, with what the gateway answered.
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
  const { verified } = await ownerPhone(db, access.userId);
  if (!verified) {
    throw new AppError("CONFLICT", {
      userMessage: "Vérifiez d'abord votre numéro de mobile : un SMS de test ne part que vers lui.",
    });
  }
  if (input.to !== undefined && input.to !== verified) {
    throw new AppError("FORBIDDEN", {
      userMessage: `Un SMS de test ne part que vers votre numéro vérifié (${formatPhone(verified)}).`,
      fields: { to: "Seulement votre numéro vérifié." },
    });
  }
  await enforceThrottle(db, `sms-test:${access.shopId}`, 3600, env.SMS_TESTS_PER_HOUR);
  const count = countSegments(input.text);
  const month = budgetMonth(now, sendWindowOf(env).timeZone);
  if (!(await reserveSegments(db, access.shopId, month, count.segments))) throw noBudget("ce test");
  const result = await sendAndRecord(db, provider, {
    shopId: access.shopId,
    kind: "test",
    to: verified,
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
 * (domain/sms/spike.ts). Shops with a budget row or an SMS in the period; alerts first,
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
