import { createHmac, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { z } from "zod";
import { AppError } from "../../../../domain/errors.ts";
import { toE164 } from "../../../../domain/messages/phone.ts";
import { isStopReply, STOP_REPLY_WORDING } from "../../../../domain/messages/sms-text.ts";
import type { Db } from "../../../db/client.ts";
import { consentSql } from "../consent.ts";

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
    where f.phone = ${phone} and ${consentSql(sql`f.id`, "sms")}
    returning user_id as id`);
  return { stop: true, unsubscribed: rows.rows.length };
}

/** The gateway's webhook body: SMS Gateway for Android ({ event, payload: { phoneNumber, message } }) or { from, text }. */
const inboundSchema = z.union([
  z.object({
    event: z.string().max(50),
    payload: z.object({ phoneNumber: z.string().max(40), message: z.string().max(2000) }),
  }),
  z.object({ from: z.string().max(40), text: z.string().max(2000) }),
]);

/** Twilio reads the answer to a form webhook as TwiML: an empty <Response/> sends no reply. */
export const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * The reply a webhook carries: JSON (`inboundSchema`), or, from a gateway that posts a form like Twilio, its `From`
 * and `Body` fields. Null for an event that is not a received SMS; an unreadable body is a validation error.
 */
export function inboundOfWebhook(rawBody: string, isForm: boolean): { from: string; text: string } | null {
  let json: unknown;
  if (isForm) {
    const fields = new URLSearchParams(rawBody);
    json = { from: fields.get("From") ?? undefined, text: fields.get("Body") ?? "" };
  } else {
    try {
      json = JSON.parse(rawBody);
    } catch {
      throw new AppError("VALIDATION", { userMessage: "Le corps doit être du JSON." });
    }
  }
  const parsed = inboundSchema.safeParse(json);
  if (!parsed.success) throw new AppError("VALIDATION", { userMessage: "Message entrant illisible." });
  const body = parsed.data;
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
