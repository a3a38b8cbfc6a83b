import { timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { AppError } from "../../../domain/errors.ts";
import type { AppEnv } from "../../lib/context.ts";
import { validate } from "../../lib/validate.ts";
import { invalidLinkPage, unsubscribePage } from "./unsubscribe-page.ts";
import { verifyUnsubscribeToken } from "../messages/unsubscribe-token.ts";
import {
  bounceSchema,
  emailChoicesOf,
  recordBounces,
  unsubscribeOneClick,
  withdrawAllEmail,
  withdrawFormSchema,
} from "./unsubscribe.service.ts";

/**
 * /api/email: the List-Unsubscribe address of every marketing e-mail (RFC 8058) and the
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

export const emailRoutes = new Hono<AppEnv>()
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
      throw new AppError("VALIDATION", { userMessage: "Demande de désabonnement incomplète (List-Unsubscribe=One-Click)." });
    }
    await unsubscribeOneClick(c.get("deps").db, claim);
    // Our own page's button (a browser asks for HTML): back to the page, which says it is done.
    if ((c.req.header("accept") ?? "").includes("text/html")) return c.redirect(`${new URL(c.req.url).pathname}?fait=1`, 303);
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
    if (claim?.deliveryId) {
      await c.get("deps").db.execute(sql`
        update message_deliveries set read_at = coalesce(read_at, now())
        where id = ${claim.deliveryId} and user_id = ${claim.userId} and channel = 'email'`);
    }
    return c.body(new Uint8Array(PIXEL), 200, { "Content-Type": "image/gif", "Cache-Control": "no-store" });
  })
  /**
   * The bounce webhook of the e-mail provider (or a relay's bounce processor): hard
   * bounces and complaints suppress the address. `Authorization: Bearer EMAIL_WEBHOOK_SECRET`.
   */
  .post("/bounces", webhookSecret, validate("json", bounceSchema), async (c) => {
    return c.json(await recordBounces(c.get("deps").db, c.req.valid("json")));
  });
