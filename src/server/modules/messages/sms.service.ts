import { createHash, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { checkMobileNumber, formatPhone } from "../../../domain/messages/phone.ts";
import { nextWindowOpening } from "../../../domain/messages/send-window.ts";
import { countSegments } from "../../../domain/messages/sms-segments.ts";
import type { Db } from "../../db/client.ts";
import type { Env } from "../../env.ts";
import { recordAudit } from "../../lib/audit.ts";
import { type ShopAccess, scopedShop } from "../../lib/shop-access.ts";
import { enforceThrottle } from "../../lib/throttle.ts";
import type { SmsProvider } from "./channels/sms-gateways.ts";
import {
  budgetMonth,
  budgetOf,
  refundSegments,
  reserveSegments,
  sendAndRecord,
  sendWindowOf,
} from "./channels/sms-sending.ts";

/**
 * The owner's SMS page (/admin/test-sms): the gateway and the send window, the budget granted and asked for
 * (the platform admin grants it: sms-platform.service.ts), the owner's own number verified by a code, a test SMS.
 */
export const segmentsCount = z
  .number({ error: "Indiquez un nombre de SMS." })
  .int("Un nombre entier, s'il vous plaît.")
  .min(0, "Le budget ne peut pas être négatif.");

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

/** The owner's verified number and the one waiting for its code. */
async function ownerPhone(db: Db, userId: string) {
  const rows = await db.execute<{ verified_phone: string | null; pending_phone: string | null; fresh: boolean }>(sql`
    select verified_phone, pending_phone, coalesce(code_expires_at > now(), false) as fresh
    from sms_owner_phones where user_id = ${userId}`);
  const row = rows.rows[0];
  return { verified: row?.verified_phone ?? null, pending: row?.fresh ? (row.pending_phone ?? null) : null };
}

export type RequestRow = {
  requested_segments: number | null;
  request_note: string | null;
  requested_at: Date | string | null;
};

/** An owner's pending budget request (sms_budgets.requested_*), or null. */
export const requestOf = (r: RequestRow) =>
  r.requested_segments != null && r.requested_at
    ? {
        monthlySegments: Number(r.requested_segments),
        note: r.request_note ?? "",
        at: new Date(r.requested_at).toISOString(),
      }
    : null;

/** What /admin/test-sms shows: the gateway, the STOP number, the budget granted and asked for, the owner's number, the send window. */
export async function smsOverview(db: Db, access: ShopAccess, env: Env, provider: SmsProvider, now: Date) {
  await scopedShop(db, access);
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

export const tooMuch = (env: Env) =>
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
  await scopedShop(db, access);
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

/** A verification code lives this long, allows this many tries, and a person may ask for this many an hour. */
const SMS_CODE_MINUTES = 10;
const SMS_CODE_TRIES = 5;
const SMS_CODES_PER_HOUR = 3;

const hashCode = (userId: string, code: string) => createHash("sha256").update(`${userId}:${code}`).digest("hex");

const noBudget = (what: string) =>
  new AppError("CONFLICT", {
    userMessage: `Le budget SMS de ce mois est atteint ou n'a pas encore été accordé par l'administration de la plateforme : ${what} ne peut pas partir. Demandez un budget ci-dessous.`,
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
  await scopedShop(db, access);
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
  await scopedShop(db, access);
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
  await scopedShop(db, access);
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
