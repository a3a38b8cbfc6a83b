import { sql } from "drizzle-orm";
import { countSegments } from "../../../../domain/messages/sms-segments.ts";
import { isWindowOpen, nextWindowOpening, type SendWindow } from "../../../../domain/messages/send-window.ts";
import { buildSmsText } from "../../../../domain/messages/sms-text.ts";
import { type SmsProvider, smsProviderFor } from "./sms-gateways.ts";
import { budgetMonth, refundSegments, reserveSegments, sendAndRecord, sendWindowOf } from "./sms-sending.ts";
import { acceptsSql } from "../consent.ts";
import { filledText, frozenValuesOf } from "../merge-values.ts";
import type { ChannelDriver, ChannelOutcome } from "./driver.ts";

/**
 * The SMS channel (issue 15): one SMS per delivery row, through the gateway the
 * environment names (sms-gateways.ts).
 * - The text is the shop's name, the title and the body, then « STOP au <number> » on
 *   marketing SMS (left to the gateway when it appends its own, as OVH does).
 * - Marketing SMS leave only inside the operator's window (default Mon–Sat 08:00–20:00
 *   Europe/Paris, not on public holidays): outside it the row is deferred to the next
 *   opening (`ctx.now` is the clock, so tests inject one).
 * - Consent is read again when each SMS leaves: a STOP received mid-campaign counts.
 * - The shop's monthly budget (segments) is reserved atomically before each SMS and
 *   given back when the gateway refused it: sending never exceeds it.
 * - The gateway's 429 defers the row (nothing left); any other failure is final — an
 *   ambiguous failure (time-out) is never retried, so nobody receives an SMS twice.
 */
type SmsPrepared = {
  shopId: string;
  shopName: string;
  text: string;
  sentText: string;
  segments: number;
  marketing: boolean;
  provider: SmsProvider;
  window: SendWindow;
};

/** What the phone shows (and what is billed): with the STOP mention, ours or the gateway's. */
function smsTexts(
  provider: SmsProvider,
  shopName: string,
  message: { title: string; body: string },
  marketing: boolean,
) {
  const input = { shopName, title: message.title, body: message.body, stopNumber: provider.stopNumber, marketing };
  const text = buildSmsText(input);
  const sentText = provider.addsOwnStopClause ? buildSmsText({ ...input, stopNumber: null }) : text;
  return { text, sentText, segments: Math.max(1, countSegments(text).segments) };
}

/** The gateway and the window come from the app's environment (ctx.deps.env) unless given (tests). */
export function createSmsDriver(
  options: { provider?: SmsProvider; window?: SendWindow; concurrency?: number } = {},
): ChannelDriver {
  return {
    channel: "sms",
    concurrency: options.concurrency ?? 8,
    async prepare(ctx, message): Promise<SmsPrepared | null> {
      if (!message.shop_id) return null;
      const provider = options.provider ?? smsProviderFor(ctx.deps.env);
      const window = options.window ?? sendWindowOf(ctx.deps.env);
      const shop = await ctx.db.execute<{ name: string }>(sql`select name from shops where id = ${message.shop_id}`);
      const shopName = shop.rows[0]?.name ?? "";
      const marketing = message.is_promotional;
      return {
        shopId: message.shop_id,
        shopName,
        ...smsTexts(provider, shopName, message, marketing),
        marketing,
        provider,
        window,
      };
    },
    async deliver(ctx, message, delivery, prepared): Promise<ChannelOutcome> {
      let sms = prepared as SmsPrepared | null;
      if (!sms) return { status: "skipped", detail: "platform announcements are not sent by SMS" };
      // An automation's title and text are filled with each recipient's own values (its length, so its cost, too).
      if (message.kind === "automation") {
        const own = filledText(message, await frozenValuesOf(ctx.db, message.id, delivery.user_id));
        sms = { ...sms, ...smsTexts(sms.provider, sms.shopName, own, sms.marketing) };
      }
      const { provider, window } = sms;
      const now = ctx.now();
      if (sms.marketing && !isWindowOpen(now, window)) {
        return { status: "deferred", notBefore: nextWindowOpening(now, window) };
      }
      const [who] = (
        await ctx.db.execute<{ phone: string | null; accepts: boolean }>(sql`
          select f.phone, ${acceptsSql(sql`f.id`, sql`${sms.shopId}`, "sms")} as accepts
          from profiles f where f.id = ${delivery.user_id}`)
      ).rows;
      if (!who?.phone || !who.accepts) return { status: "skipped", detail: "no SMS consent or number" };
      const month = budgetMonth(now, window.timeZone);
      if (!(await reserveSegments(ctx.db, sms.shopId, month, sms.segments))) {
        return { status: "skipped", detail: "monthly SMS budget reached" };
      }
      const result = await sendAndRecord(ctx.db, provider, {
        shopId: sms.shopId,
        kind: "campaign",
        to: who.phone,
        text: sms.sentText,
        marketing: sms.marketing,
        segments: sms.segments,
      });
      if (result.ok) return { status: "delivered" };
      await refundSegments(ctx.db, sms.shopId, month, sms.segments);
      if (result.retryAfterMs !== null) {
        return { status: "deferred", notBefore: new Date(now.getTime() + result.retryAfterMs) };
      }
      ctx.logger?.warn("sms: gateway refused", { provider: provider.name, status: result.status });
      return { status: "failed", detail: result.answer };
    },
  };
}

/** The SMS channel of the sending engine (registered in drivers.ts). */
export const smsDriver: ChannelDriver = createSmsDriver();
