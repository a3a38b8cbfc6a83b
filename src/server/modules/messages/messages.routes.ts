import { type Context, Hono } from "hono";
import { streamSSE } from "hono/streaming";
import { z } from "zod";
import { announceSchema, composeSchema, PLATFORM_AUDIENCES, segmentSchema } from "../../../domain/messages/segments.ts";
import { type AppEnv, currentAdmin, currentUser } from "../../lib/context.ts";
import { waitForChange } from "../../lib/live.ts";
import { validate } from "../../lib/validate.ts";
import { ownerOnly, type ShopEnv } from "../../lib/shop-access.ts";
import {
  changeMessageStatus,
  composerContext,
  countRecipients,
  createMessage,
  getSentMessage,
  listSentMessages,
} from "./compose.service.ts";
import { getInboxMessage, listInbox, markClicked, markRead, unreadCount } from "./inbox.service.ts";
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
import { pushPolicy, pushSenderFor } from "./push.ts";
import { inboxKey } from "./sending.service.ts";

const idParam = z.object({ id: z.string().uuid("Message introuvable.") });
const shopParam = z.object({
  shopId: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "Boutique introuvable."),
});
const shopMessageParam = shopParam.extend({ id: z.string().uuid("Message introuvable.") });
const deviceParam = z.object({
  deviceId: z
    .string()
    .min(8)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, "Appareil inconnu."),
});
const actionParam = z.object({ action: z.enum(["pause", "resume", "cancel"], { error: "Action inconnue." }) });
const countSchema = z.object({
  segment: segmentSchema.default({ kind: "all" }),
  push: z.boolean().default(true),
  email: z.boolean().default(false),
  sms: z.boolean().default(false),
});
const platformCountSchema = z.object({
  audience: z.enum(PLATFORM_AUDIENCES),
  push: z.boolean().default(true),
  email: z.boolean().default(false),
});

/** SPEC §9 realtime: a heartbeat every 30 s (the page gives up 10 s after a missed one and reconnects). */
export const STREAM_HEARTBEAT_MS = 30_000;
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

/** /api/messages: the shopper's inbox, preferences and devices; a shop's composer; platform announcements. */
export const messagesRoutes = new Hono<AppEnv>()
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
    const admin = currentAdmin(c);
    return c.json(
      { message: await createMessage(c.get("deps"), { kind: "platform", userId: admin.id }, c.req.valid("json")) },
      201,
    );
  })
  .post("/platform/sent/:id/:action", validate("param", idParam.extend(actionParam.shape)), async (c) => {
    const admin = currentAdmin(c);
    const { id, action } = c.req.valid("param");
    return c.json({
      message: await changeMessageStatus(c.get("deps"), { kind: "platform", userId: admin.id }, id, action),
    });
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

/** /api/messages/shops/:shopId/…: a shop's composer and sent messages (behind the one shopAccess guard). */
export const messagesManageRoutes = new Hono<ShopEnv>()
  .get("/composer", ownerOnly, async (c) => {
    const access = c.get("access");
    return c.json(await composerContext(c.get("deps").db, c.get("deps").env, access));
  })
  .post("/audience", ownerOnly, validate("json", countSchema), async (c) => {
    const access = c.get("access");
    const input = c.req.valid("json");
    return c.json(
      await countRecipients(
        c.get("deps").db,
        { kind: "shop", access },
        { segment: input.segment, push: input.push, email: input.email, sms: input.sms },
      ),
    );
  })
  .get("/sent", ownerOnly, async (c) => {
    const access = c.get("access");
    return c.json({ messages: await listSentMessages(c.get("deps").db, { kind: "shop", access }) });
  })
  .post("/sent", ownerOnly, validate("json", composeSchema), async (c) => {
    const access = c.get("access");
    return c.json({ message: await createMessage(c.get("deps"), { kind: "shop", access }, c.req.valid("json")) }, 201);
  })
  .get("/sent/:id", ownerOnly, validate("param", shopMessageParam), async (c) => {
    const { id } = c.req.valid("param");
    const access = c.get("access");
    return c.json({ message: await getSentMessage(c.get("deps").db, { kind: "shop", access }, id) });
  })
  .post("/sent/:id/:action", ownerOnly, validate("param", shopMessageParam.extend(actionParam.shape)), async (c) => {
    const { id, action } = c.req.valid("param");
    const access = c.get("access");
    return c.json({ message: await changeMessageStatus(c.get("deps"), { kind: "shop", access }, id, action) });
  });
