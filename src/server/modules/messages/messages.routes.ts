import { timingSafeEqual } from "node:crypto";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { AppError } from "../../../domain/errors.ts";
import { AUTOMATION_KINDS, automationSettingsSchema, RESULT_PERIODS } from "../../../domain/messages/automations.ts";
import { reviewSettingsSchema } from "../../../domain/reviews/review-requests.ts";
import { getReviewsPage, saveReviewSettings } from "./review-requests.service.ts";
import { newsletterContentSchema, newsletterSchema } from "../../../domain/messages/newsletter-blocks.ts";
import { announceSchema, composeSchema, PLATFORM_AUDIENCES, segmentSchema } from "../../../domain/messages/segments.ts";
import { type AppEnv, currentAdmin, currentUser } from "../../lib/context.ts";
import { waitForChange } from "../../lib/live.ts";
import { isGatewayFormWebhook } from "../../lib/same-site.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import { validate } from "../../lib/validate.ts";
import { pushPolicy, pushSenderFor } from "./channels/push.ts";
import { smsProviderFor } from "./channels/sms-gateways.ts";
import { sendWinBackNow } from "./automation-run.service.ts";
import { listAutomations, saveAutomation } from "./automations.service.ts";
import { changeMessageStatus, composerContext, countRecipients, createMessage } from "./compose.service.ts";
import { getInboxMessage, listInbox, markClicked, markRead, unreadCount } from "./inbox.service.ts";
import {
  getNewsletter,
  listNewsletters,
  newsletterEditorContext,
  previewNewsletter,
  sendTestNewsletter,
} from "./newsletter.service.ts";
import {
  deleteSubscription,
  getPreferences,
  preferenceSchema,
  renewSchema,
  renewSubscription,
  saveSubscription,
  setPreference,
  subscriptionSchema,
} from "./preferences.service.ts";
import { inboxKey } from "./sending.service.ts";
import { getSentMessage, listSentMessages } from "./sent.service.ts";
import { listSmsOutbox } from "./sms-platform.service.ts";
import {
  budgetRequestSchema,
  confirmPhoneCode,
  phoneCodeSchema,
  phoneSchema,
  requestBudget,
  sendPhoneCode,
  sendTestSms,
  smsOverview,
  testSmsSchema,
} from "./sms.service.ts";
import { EMPTY_TWIML, handleInboundSms, inboundOfWebhook, webhookAuthorised } from "./unsubscribe/sms-stop.ts";
import { invalidLinkPage, unsubscribePage } from "./unsubscribe/unsubscribe-page.ts";
import { verifyUnsubscribeToken } from "./unsubscribe/unsubscribe-token.ts";
import {
  bounceSchema,
  emailChoicesOf,
  markEmailOpened,
  recordBounces,
  unsubscribeOneClick,
  withdrawAllEmail,
  withdrawFormSchema,
} from "./unsubscribe/unsubscribe.service.ts";

/**
 * The messages module's routes (ADR 0041): `messagesRoutes` under /api — the shopper's inbox and choices and the
 * platform's announcements (/messages), the links of every marketing e-mail (/email), the SMS gateway's webhook and
 * the platform's SMS outbox (/sms) — and `messagesManageRoutes`, a shop's messages in its back office.
 */

const idParam = z.object({ id: z.string().uuid("Message introuvable.") });
const deviceParam = z.object({
  deviceId: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "Appareil inconnu."),
});
const actionParam = z.object({ action: z.enum(["pause", "resume", "cancel"], { error: "Action inconnue." }) });
const platformCountSchema = z.object({
  audience: z.enum(PLATFORM_AUDIENCES),
  push: z.boolean().default(true),
  email: z.boolean().default(false),
});

/** SPEC §9 realtime: a heartbeat every 30 s (the page gives up 10 s after a missed one and reconnects). */
const STREAM_HEARTBEAT_MS = 30_000;
const STREAM_POLL_MS = 3000;
const STREAM_MAX_MS = 10 * 60_000;

/** A device turns push on (POST) or its weekly check (PUT, `recheck`): the same saving, through the push policy. */
function saveDevice(c: Context<AppEnv>, input: z.output<typeof subscriptionSchema>, recheck: boolean) {
  const deps = c.get("deps");
  const { db, env, logger } = deps;
  return saveSubscription(db, currentUser(c).id, input, {
    push: pushSenderFor(deps),
    policy: pushPolicy(env),
    userAgent: c.req.header("user-agent")?.slice(0, 300) ?? null,
    recheck,
    logger,
  });
}

/** /messages: the shopper's inbox, preferences and devices; platform announcements (a shop's are below). */
const inboxRoutes = new Hono<AppEnv>()
  .get("/inbox", async (c) => c.json(await listInbox(c.get("deps").db, currentUser(c).id)))
  .get("/unread", async (c) => c.json({ unread: await unreadCount(c.get("deps").db, currentUser(c).id) }))
  /**
   * The one live stream of a signed-in app: `unread` now and whenever the count
   * changes (a message delivered or read, here or in another process within 3 s),
   * a comment every 30 s. Closes after 10 min; the page reconnects.
   */
  .get("/events", async (c) => {
    const user = currentUser(c);
    const { database, db } = c.get("deps");
    let unread = await unreadCount(db, user.id);
    return streamSSE(c, async (stream) => {
      const aborted = new AbortController();
      stream.onAbort(() => aborted.abort());
      await stream.writeSSE({ event: "unread", data: JSON.stringify({ unread }) });
      const started = Date.now();
      let lastBeat = started;
      while (!aborted.signal.aborted && Date.now() - started < STREAM_MAX_MS) {
        await waitForChange(database, inboxKey(user.id), STREAM_POLL_MS, aborted.signal);
        if (aborted.signal.aborted) break;
        const next = await unreadCount(db, user.id);
        if (next !== unread) {
          unread = next;
          await stream.writeSSE({ event: "unread", data: JSON.stringify({ unread }) });
        } else if (Date.now() - lastBeat >= STREAM_HEARTBEAT_MS) {
          lastBeat = Date.now();
          await stream.write(": heartbeat\n\n");
        }
      }
    });
  })
  .get("/preferences", async (c) => {
    const deps = c.get("deps");
    return c.json(await getPreferences(deps.db, currentUser(c).id, pushSenderFor(deps).publicKey));
  })
  .put("/preferences", validate("json", preferenceSchema), async (c) => {
    const user = currentUser(c);
    const deps = c.get("deps");
    await setPreference(deps.db, user.id, c.req.valid("json"));
    return c.json(await getPreferences(deps.db, user.id, pushSenderFor(deps).publicKey));
  })
  .post("/devices", validate("json", subscriptionSchema), async (c) =>
    c.json(await saveDevice(c, c.req.valid("json"), false), 201),
  )
  .put("/devices", validate("json", subscriptionSchema), async (c) =>
    c.json(await saveDevice(c, c.req.valid("json"), true)),
  )
  .post("/devices/renew", validate("json", renewSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await renewSubscription(db, currentUser(c).id, c.req.valid("json"), pushPolicy(env)));
  })
  .delete("/devices/:deviceId", validate("param", deviceParam), async (c) => {
    return c.json(await deleteSubscription(c.get("deps").db, currentUser(c).id, c.req.valid("param").deviceId));
  })
  // Platform announcements (/admin/push, platform admin only).
  .post("/platform/audience", validate("json", platformCountSchema), async (c) => {
    const admin = currentAdmin(c);
    const input = c.req.valid("json");
    return c.json(await countRecipients(c.get("deps").db, { kind: "platform", userId: admin.id }, input));
  })
  .get("/platform/sent", async (c) => {
    const admin = currentAdmin(c);
    return c.json({ messages: await listSentMessages(c.get("deps").db, { kind: "platform", userId: admin.id }) });
  })
  .post("/platform/sent", validate("json", announceSchema), async (c) => {
    const sender = { kind: "platform", userId: currentAdmin(c).id } as const;
    const deps = c.get("deps");
    return c.json(
      { message: await getSentMessage(deps.db, sender, await createMessage(deps, sender, c.req.valid("json"))) },
      201,
    );
  })
  .post("/platform/sent/:id/:action", validate("param", idParam.extend(actionParam.shape)), async (c) => {
    const sender = { kind: "platform", userId: currentAdmin(c).id } as const;
    const { id, action } = c.req.valid("param");
    await changeMessageStatus(c.get("deps"), sender, id, action);
    return c.json({ message: await getSentMessage(c.get("deps").db, sender, id) });
  })
  // One message of the shopper's (last: its :id would shadow the paths above).
  .get("/:id", validate("param", idParam), async (c) => {
    return c.json({ message: await getInboxMessage(c.get("deps").db, currentUser(c).id, c.req.valid("param").id) });
  })
  .post("/:id/read", validate("param", idParam), async (c) => {
    return c.json(await markRead(c.get("deps").database, currentUser(c).id, c.req.valid("param").id));
  })
  .post("/:id/click", validate("param", idParam), async (c) => {
    return c.json(await markClicked(c.get("deps").database, currentUser(c).id, c.req.valid("param").id));
  });

/**
 * /email: the List-Unsubscribe address of every marketing e-mail (RFC 8058) and the
 * bounce webhook. The unsubscribe POSTs come from mail clients (form-encoded, no Origin,
 * no cookie): lib/same-site.ts lets exactly these paths through (`isOneClickUnsubscribe`);
 * the signed token in the path is their only authority.
 */
const html = (c: Context, body: string, status: 200 | 404 = 200) => {
  c.header("Referrer-Policy", "no-referrer");
  c.header("X-Robots-Tag", "noindex");
  return c.html(body, status);
};

function claimOf(c: Context<AppEnv>) {
  return verifyUnsubscribeToken(c.get("deps").env.SECRET, c.req.param("token") ?? "");
}

async function formOf(c: Context) {
  try {
    return await c.req.parseBody({ all: true });
  } catch {
    throw new AppError("VALIDATION", { userMessage: "Formulaire illisible." });
  }
}

/** The webhook's shared secret, checked before anything else is read. */
const webhookSecret: MiddlewareHandler<AppEnv> = async (c, next) => {
  const secret = c.get("deps").env.EMAIL_WEBHOOK_SECRET;
  if (!secret) throw new AppError("NOT_FOUND", { message: "bounce webhook off (no EMAIL_WEBHOOK_SECRET)" });
  const given = Buffer.from((c.req.header("authorization") ?? "").replace(/^Bearer\s+/i, ""));
  const expected = Buffer.from(secret);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new AppError("UNAUTHENTICATED", { userMessage: "Secret du webhook invalide." });
  }
  await next();
};

/** A transparent 1×1 GIF. */
const PIXEL = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

const emailRoutes = new Hono<AppEnv>()
  .get("/unsubscribe/:token", async (c) => {
    const claim = claimOf(c);
    const choices = claim ? await emailChoicesOf(c.get("deps").db, claim) : null;
    if (!claim || !choices) return html(c, invalidLinkPage(), 404);
    return html(
      c,
      unsubscribePage(new URL(c.req.url).pathname, choices, {
        done: c.req.query("fait") === "1",
        saved: c.req.query("enregistre") === "1",
      }),
    );
  })
  /** RFC 8058 §3.2: the body is `List-Unsubscribe=One-Click`; it unsubscribes at once. */
  .post("/unsubscribe/:token", async (c) => {
    const claim = claimOf(c);
    if (!claim) return html(c, invalidLinkPage(), 404);
    const form = await formOf(c);
    if (form["List-Unsubscribe"] !== "One-Click") {
      throw new AppError("VALIDATION", {
        userMessage: "Demande de désabonnement incomplète (List-Unsubscribe=One-Click).",
      });
    }
    await unsubscribeOneClick(c.get("deps").db, claim);
    // Our own page's button (a browser asks for HTML): back to the page, which says it is done.
    if ((c.req.header("accept") ?? "").includes("text/html"))
      return c.redirect(`${new URL(c.req.url).pathname}?fait=1`, 303);
    return c.text("Désabonnement enregistré.");
  })
  /** The page's "every e-mail" button: withdraws only (a token never grants: /notif does, signed in). */
  .post("/unsubscribe/:token/preferences", async (c) => {
    const claim = claimOf(c);
    if (!claim) return html(c, invalidLinkPage(), 404);
    const parsed = withdrawFormSchema.safeParse(await formOf(c));
    if (!parsed.success) {
      throw new AppError("VALIDATION", {
        userMessage:
          "Ce lien permet seulement de vous désabonner. Pour recevoir des e-mails, connectez-vous : page « Réglages des notifications ».",
      });
    }
    await withdrawAllEmail(c.get("deps").db, claim);
    const page = new URL(c.req.url).pathname.replace(/\/preferences$/, "");
    return c.redirect(`${page}?enregistre=1`, 303);
  })
  /** The open-tracking image (only in e-mails sent while EMAIL_OPEN_TRACKING is on): marks the e-mail opened. */
  .get("/open/:token", async (c) => {
    const claim = verifyUnsubscribeToken(c.get("deps").env.SECRET, c.req.param("token"), "open");
    if (claim) await markEmailOpened(c.get("deps").db, claim);
    return c.body(new Uint8Array(PIXEL), 200, { "Content-Type": "image/gif", "Cache-Control": "no-store" });
  })
  /**
   * The bounce webhook of the e-mail provider (or a relay's bounce processor): hard
   * bounces and complaints suppress the address. `Authorization: Bearer EMAIL_WEBHOOK_SECRET`.
   */
  .post("/bounces", webhookSecret, validate("json", bounceSchema), async (c) => {
    return c.json(await recordBounces(c.get("deps").db, c.req.valid("json")));
  });

/** /sms: the gateway's webhook (replies, STOP) and the platform admin's SMS outbox. */
const smsRoutes = new Hono<AppEnv>()
  .post("/webhook", async (c) => {
    const { db, env } = c.get("deps");
    const rawBody = await c.req.text();
    const authorised = webhookAuthorised(env.SMS_WEBHOOK_SECRET, {
      header: (name) => c.req.header(name),
      query: (name) => c.req.query(name),
      rawBody,
    });
    if (!authorised) throw new AppError("UNAUTHENTICATED", { userMessage: "Secret du webhook SMS manquant ou faux." });
    const form = isGatewayFormWebhook("POST", c.req.path, c.req.header("content-type"));
    const inbound = inboundOfWebhook(rawBody, form);
    const result = inbound ? await handleInboundSms(db, inbound) : { stop: false, unsubscribed: 0 };
    if (form) return c.body(EMPTY_TWIML, 200, { "Content-Type": "text/xml; charset=utf-8" });
    return c.json(result);
  })
  .get("/outbox", async (c) => {
    currentAdmin(c);
    return c.json({ messages: await listSmsOutbox(c.get("deps").db) });
  });

/**
 * A shop's messages in its back-office (/api/backoffice/shops/:shopId/…, behind app.ts's one shopAccess guard),
 * for its owners only: the composer and what it sent (/messages), e-mail campaigns (/newsletters), the SMS page
 * (/sms). A newsletter is a message of another kind: both go through compose.service.ts's one pipeline.
 */
const newsletterId = z.object({ id: z.string().uuid("Newsletter introuvable.") });
const countSchema = z.object({
  segment: segmentSchema.default({ kind: "all" }),
  push: z.boolean().default(true),
  email: z.boolean().default(false),
  sms: z.boolean().default(false),
});
const newsletterAudienceSchema = z.object({ segment: segmentSchema.default({ kind: "all" }) });

const shopSender = (c: Context<ShopEnv>) => ({ kind: "shop", access: c.get("access") }) as const;

/** /messages: the composer (/admin/envoyer-un-message) and the messages sent (/admin/message). */
const composerRoutes = new Hono<ShopEnv>()
  .use(ownerOnly)
  .get("/composer", async (c) => c.json(await composerContext(c.get("deps").db, c.get("deps").env, c.get("access"))))
  .post("/audience", validate("json", countSchema), async (c) => {
    return c.json(await countRecipients(c.get("deps").db, shopSender(c), c.req.valid("json")));
  })
  .get("/", async (c) => c.json({ messages: await listSentMessages(c.get("deps").db, shopSender(c)) }))
  .post("/", validate("json", composeSchema), async (c) => {
    const deps = c.get("deps");
    const id = await createMessage(deps, shopSender(c), c.req.valid("json"));
    return c.json({ message: await getSentMessage(deps.db, shopSender(c), id) }, 201);
  })
  .get("/:id", validate("param", idParam), async (c) => {
    return c.json({ message: await getSentMessage(c.get("deps").db, shopSender(c), c.req.valid("param").id) });
  })
  .post("/:id/:action", validate("param", idParam.extend(actionParam.shape)), async (c) => {
    const { id, action } = c.req.valid("param");
    await changeMessageStatus(c.get("deps"), shopSender(c), id, action);
    return c.json({ message: await getSentMessage(c.get("deps").db, shopSender(c), id) });
  });

/** /newsletters: e-mail campaigns (/admin/newsletter): the editor, its preview and test copy, the campaigns. */
const newsletterRoutes = new Hono<ShopEnv>()
  .use(ownerOnly)
  .get("/editor", async (c) => c.json(await newsletterEditorContext(c.get("deps"), c.get("access"))))
  .post("/audience", validate("json", newsletterAudienceSchema), async (c) => {
    const { segment } = c.req.valid("json");
    const target = { segment, inapp: false, push: false, email: true };
    return c.json({ email: (await countRecipients(c.get("deps").db, shopSender(c), target)).email });
  })
  .post("/preview", validate("json", newsletterContentSchema), async (c) => {
    return c.json(await previewNewsletter(c.get("deps"), c.get("access"), c.req.valid("json")));
  })
  .post("/test", validate("json", newsletterContentSchema), async (c) => {
    return c.json(await sendTestNewsletter(c.get("deps"), c.get("access"), c.req.valid("json")));
  })
  .get("/", async (c) => c.json({ newsletters: await listNewsletters(c.get("deps").db, c.get("access")) }))
  .post("/", validate("json", newsletterSchema), async (c) => {
    const deps = c.get("deps");
    const id = await createMessage(deps, shopSender(c), { kind: "newsletter", ...c.req.valid("json") });
    return c.json({ newsletter: await getNewsletter(deps.db, c.get("access"), id) }, 201);
  })
  .get("/:id", validate("param", newsletterId), async (c) => {
    return c.json({ newsletter: await getNewsletter(c.get("deps").db, c.get("access"), c.req.valid("param").id) });
  })
  .post("/:id/:action", validate("param", newsletterId.extend(actionParam.shape)), async (c) => {
    const { id, action } = c.req.valid("param");
    await changeMessageStatus(c.get("deps"), shopSender(c), id, action, "newsletter");
    return c.json({ newsletter: await getNewsletter(c.get("deps").db, c.get("access"), id) });
  });

/** /sms: /admin/test-sms (the gateway, the owner's number, a test SMS, the budget asked for). */
const smsManageRoutes = new Hono<ShopEnv>()
  .use(ownerOnly)
  .get("/", async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await smsOverview(db, c.get("access"), env, smsProviderFor(env), new Date()));
  })
  // The budget is the platform admin's to grant (ADR 0032): the owner asks.
  .post("/budget-request", validate("json", budgetRequestSchema), async (c) => {
    const { db, env } = c.get("deps");
    const access = c.get("access");
    await requestBudget(db, access, env, c.req.valid("json"), c.get("clientIp") ?? null);
    return c.json(await smsOverview(db, access, env, smsProviderFor(env), new Date()));
  })
  .post("/phone", validate("json", phoneSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await sendPhoneCode(db, c.get("access"), env, smsProviderFor(env), c.req.valid("json"), new Date()));
  })
  .post("/phone/confirm", validate("json", phoneCodeSchema), async (c) => {
    const { db, env } = c.get("deps");
    const access = c.get("access");
    await confirmPhoneCode(db, access, c.req.valid("json"), c.get("clientIp") ?? null);
    return c.json(await smsOverview(db, access, env, smsProviderFor(env), new Date()));
  })
  .post("/test", validate("json", testSmsSchema), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await sendTestSms(db, c.get("access"), env, smsProviderFor(env), c.req.valid("json"), new Date()));
  });

/**
 * A shop's automations (/api/backoffice/shops/:shopId/automations; issue 27, ADR 0046), for its owners only: the
 * page (/admin/automatisations), one automation's settings, and the at-risk list's one-tap win-back.
 */
const kindParam = z.object({ kind: z.enum(AUTOMATION_KINDS, { error: "Automatisation inconnue." }) });
const periodQuery = z.object({
  days: z.coerce
    .number()
    .refine((d) => (RESULT_PERIODS as readonly number[]).includes(d), "Période inconnue.")
    .default(30),
});
const winBackBody = z.object({ cardId: z.string().uuid("Client introuvable.") });

const automationRoutes = new Hono<ShopEnv>()
  .use(ownerOnly)
  .get("/", validate("query", periodQuery), async (c) => {
    const { db, env } = c.get("deps");
    return c.json(await listAutomations(db, env, c.get("access"), c.req.valid("query").days, new Date()));
  })
  .put("/:kind", validate("param", kindParam), validate("json", automationSettingsSchema), async (c) => {
    const { kind } = c.req.valid("param");
    await saveAutomation(c.get("deps").db, c.get("access"), kind, c.req.valid("json"), new Date());
    return c.json({ ok: true });
  })
  .post("/win_back/send", validate("json", winBackBody), async (c) => {
    const messageId = await sendWinBackNow(c.get("deps"), c.get("access"), c.req.valid("json").cardId, new Date());
    return c.json({ messageId }, 201);
  });

/** A shop's review requests (/api/backoffice/shops/:shopId/reviews; issue 28, ADR 0048), for its owners only. */
const reviewRoutes = new Hono<ShopEnv>()
  .use(ownerOnly)
  .get("/", async (c) => c.json(await getReviewsPage(c.get("deps").db, c.get("access"), new Date())))
  .put("/settings", validate("json", reviewSettingsSchema), async (c) => {
    await saveReviewSettings(c.get("deps").db, c.get("access"), c.req.valid("json"));
    return c.json({ ok: true });
  });

export const messagesRoutes = new Hono<AppEnv>()
  .route("/messages", inboxRoutes)
  .route("/email", emailRoutes)
  .route("/sms", smsRoutes);

export const messagesManageRoutes = new Hono<ShopEnv>()
  .route("/messages", composerRoutes)
  .route("/newsletters", newsletterRoutes)
  .route("/sms", smsManageRoutes)
  .route("/automations", automationRoutes)
  .route("/reviews", reviewRoutes);
