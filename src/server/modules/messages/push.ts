import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import type https from "node:https";
import path from "node:path";
import webpush from "web-push";
import type { Env } from "../../env.ts";
import { agentFor, checkDestination, type OutboundPolicy } from "../../lib/outbound.ts";

/**
 * Standard Web Push with VAPID (RFC 8030, RFC 8292) through `web-push`. The keys come
 * from the environment (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT) or are
 * generated on first start and kept in DATA_DIR/vapid.json, so subscriptions survive
 * restarts (a new key pair would orphan every device).
 */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

export type PushTarget = { endpoint: string; p256dh: string; auth: string };

export type PushOutcome =
  | { ok: true; status: number }
  /** gone: 404/410, the subscription is dead; retryAfterMs: 429/503 with Retry-After. */
  | { ok: false; status: number; gone: boolean; retryAfterMs: number | null; error: string };

export type PushSender = {
  publicKey: string;
  send: (
    target: PushTarget,
    payload: string,
    options?: { ttl?: number; urgency?: webpush.Urgency; topic?: string },
  ) => Promise<PushOutcome>;
};

/** A day: a promotion older than that is not worth showing when a phone comes back online. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;

const keysByDir = new Map<string, VapidKeys>();

export function vapidKeys(
  env: Pick<Env, "DATA_DIR" | "APP_URL" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT">,
): VapidKeys {
  const subject =
    env.VAPID_SUBJECT ?? (env.APP_URL.startsWith("https://") ? env.APP_URL : "mailto:contact@fidele.local");
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const known = keysByDir.get(env.DATA_DIR);
  if (known) return { ...known, subject };
  const file = path.join(env.DATA_DIR, "vapid.json");
  let keys: { publicKey: string; privateKey: string };
  try {
    keys = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    mkdirSync(env.DATA_DIR, { recursive: true });
    const fresh = webpush.generateVAPIDKeys();
    try {
      // "wx": two processes starting together keep the first one's keys.
      writeFileSync(file, JSON.stringify(fresh), { mode: 0o600, flag: "wx" });
      keys = fresh;
    } catch {
      keys = JSON.parse(readFileSync(file, "utf8"));
    }
  }
  const result = { ...keys, subject };
  keysByDir.set(env.DATA_DIR, result);
  return result;
}

/**
 * Where a push endpoint may point (issue 22): the browsers' push services on port 443 — Chrome, Edge's Chromium,
 * Opera, Samsung (FCM), Firefox (autopush), Windows (WNS), Safari (APNs web push) — and the push services the
 * operator names in PUSH_SERVICE_ORIGINS. Checked when a device subscribes and again before every push.
 */
export const BROWSER_PUSH_HOSTS = [
  "fcm.googleapis.com",
  "*.push.services.mozilla.com",
  "*.notify.windows.com",
  "web.push.apple.com",
  "*.push.apple.com",
] as const;

export function pushPolicy(env: Pick<Env, "PUSH_SERVICE_ORIGINS">): OutboundPolicy {
  return {
    purpose: "push",
    hosts: BROWSER_PUSH_HOSTS,
    protocols: ["https:"],
    ports: [443],
    trustedOrigins: env.PUSH_SERVICE_ORIGINS,
  };
}

function retryAfterMs(value: string | undefined): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A VAPID token is good for up to 24 h (RFC 8292 §2): one per push service, signed twice a day, not per push. */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;

export function createPushSender(keys: VapidKeys, policy: OutboundPolicy): PushSender {
  const tokens = new Map<string, { authorization: string; renewAt: number }>();
  const authorizationFor = (endpoint: string) => {
    const audience = new URL(endpoint).origin;
    const known = tokens.get(audience);
    if (known && known.renewAt > Date.now()) return known.authorization;
    const expiration = Math.floor(Date.now() / 1000) + VAPID_TOKEN_SECONDS;
    const { Authorization } = webpush.getVapidHeaders(
      audience,
      keys.subject,
      keys.publicKey,
      keys.privateKey,
      "aes128gcm",
      expiration,
    );
    tokens.set(audience, { authorization: Authorization, renewAt: Date.now() + (VAPID_TOKEN_SECONDS - 3600) * 1000 });
    return Authorization;
  };
  return {
    publicKey: keys.publicKey,
    async send(target, payload, options = {}) {
      // A stored endpoint is checked again when used: one saved before the rule, or a service the operator dropped,
      // is gone (the driver deletes it) and nothing is connected to.
      const checked = checkDestination(target.endpoint, policy);
      if (!checked.ok)
        return { ok: false, status: 0, gone: true, retryAfterMs: null, error: `refused: ${checked.reason}` };
      try {
        const result = await webpush.sendNotification(
          { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
          payload,
          {
            headers: { Authorization: authorizationFor(target.endpoint) },
            TTL: options.ttl ?? PUSH_TTL_SECONDS,
            urgency: options.urgency ?? "normal",
            ...(options.topic ? { topic: options.topic } : {}),
            timeout: 10_000,
            agent: agentFor(checked.destination) as https.Agent,
          },
        );
        return { ok: true, status: result.statusCode };
      } catch (error) {
        if (error instanceof webpush.WebPushError) {
          const headers = error.headers as Record<string, string | undefined>;
          return {
            ok: false,
            status: error.statusCode,
            gone: error.statusCode === 404 || error.statusCode === 410,
            retryAfterMs:
              error.statusCode === 429 || error.statusCode === 503
                ? (retryAfterMs(headers["retry-after"]) ?? 1000)
                : null,
            error: `${error.statusCode} ${String(error.body ?? "").slice(0, 200)}`,
          };
        }
        return {
          ok: false,
          status: 0,
          gone: false,
          retryAfterMs: null,
          error: error instanceof Error ? error.message : String(error),
        };
      }
    },
  };
}

const senders = new Map<string, PushSender>();
/** The sender for this configuration (one per key pair and set of push services). */
export function pushSenderFor(env: Env): PushSender {
  const keys = vapidKeys(env);
  const key = `${keys.publicKey} ${env.PUSH_SERVICE_ORIGINS.join(",")}`;
  let sender = senders.get(key);
  if (!sender) {
    sender = createPushSender(keys, pushPolicy(env));
    senders.set(key, sender);
  }
  return sender;
}
