import { Hono } from "hono";
import { AppError } from "../../../domain/errors.ts";
import { type AppEnv, currentAdmin } from "../../lib/context.ts";
import { isGatewayFormWebhook } from "../../lib/same-site.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { smsProviderFor } from "./providers.ts";
import {
  budgetRequestSchema,
  confirmPhoneCode,
  handleInboundSms,
  inboundOf,
  inboundSchema,
  listSmsOutbox,
  phoneCodeSchema,
  phoneSchema,
  requestBudget,
  sendPhoneCode,
  sendTestSms,
  smsOverview,
  testSmsSchema,
  webhookAuthorised,
} from "./sms.service.ts";

/** /api/backoffice/shops/:shopId/sms…: /admin/test-sms (the gateway, the owner's number, a test SMS, the budget asked for). */
export const smsManageRoutes = new Hono<ShopEnv>()
  .get("/sms", ownerOnly, async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await smsOverview(db, c.get("access"), env, smsProviderFor(env), new Date()));
  })
  // The budget is the platform admin's to grant (ADR 0032): the owner asks.
  .post("/sms/budget-request", ownerOnly, validate("json", budgetRequestSchema), async (c) => {
    const { db, env } = c.get("deps");
    const access = c.get("access");
    await requestBudget(db, access, env, c.req.valid("json"), c.get("clientIp") ?? null);
    return c.json(await smsOverview(db, access, env, smsProviderFor(env), new Date()));
  })
  .post("/sms/phone", ownerOnly, validate("json", phoneSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await sendPhoneCode(db, c.get("access"), env, smsProviderFor(env), c.req.valid("json"), new Date()));
  })
  .post("/sms/phone/confirm", ownerOnly, validate("json", phoneCodeSchema), async (c) => {
    const { db, env } = c.get("deps");
    const access = c.get("access");
    await confirmPhoneCode(db, access, c.req.valid("json"), c.get("clientIp") ?? null);
    return c.json(await smsOverview(db, access, env, smsProviderFor(env), new Date()));
  })
  .post("/sms/test", ownerOnly, validate("json", testSmsSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await sendTestSms(db, c.get("access"), env, smsProviderFor(env), c.req.valid("json"), new Date()));
  });

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** /api/sms: the gateway's webhook (replies, STOP) and the platform admin's SMS outbox. */
export const smsRoutes = new Hono<AppEnv>()
  .post("/webhook", async (c) => {
    const { db, env } = c.get("deps");
    const rawBody = await c.req.text();
    const authorised = webhookAuthorised(env.SMS_WEBHOOK_SECRET, {
      header: (name) => c.req.header(name),
      query: (name) => c.req.query(name),
      rawBody,
    });
    if (!authorised) throw new AppError("UNAUTHENTICATED", { userMessage: "Secret du webhook SMS manquant ou faux." });
    // Twilio posts a form (From, Body) and reads the answer as TwiML: an empty <Response/> sends no reply.
    const form = isGatewayFormWebhook("POST", c.req.path, c.req.header("content-type"));
    let json: unknown;
    if (form) {
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
    const inbound = inboundOf(parsed.data);
    const result = inbound ? await handleInboundSms(db, inbound) : { stop: false, unsubscribed: 0 };
    if (form) return c.body(EMPTY_TWIML, 200, { "Content-Type": "text/xml; charset=utf-8" });
    return c.json(result);
  })
  .get("/outbox", async (c) => {
    currentAdmin(c);
    return c.json({ messages: await listSmsOutbox(c.get("deps").db) });
  });
