import { readFileSync } from "node:fs";
import type https from "node:https";
import path from "node:path";
import webpush from "web-push";
import type { Db } from "../../../db/client.ts";
import type { Env } from "../../../env.ts";
import { sharedInstanceKey } from "../../../lib/instance-keys.ts";
import { agentFor, checkDestination, type OutboundPolicy } from "../../../lib/outbound.ts";

/**
 * Standard Web Push with VAPID (RFC 8030, RFC 8292) through `web-push`. The keys come from the environment
 * (VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY / VAPID_SUBJECT) or from the database, generated once for the whole
 * instance (ADR 0038): every process signs with the same pair, or a device subscribed through one process would
 * be refused by its push service when another sends; a new pair would orphan every device.
 */
export type VapidKeys = { publicKey: string; privateKey: string; subject: string };

type PushTarget = { endpoint: string; p256dh: string; auth: string };

type PushOutcome =
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
const PUSH_TTL_SECONDS = 24 * 60 * 60;

/** Where releases before ADR 0038 kept the generated pair: carried into the database by the first start after. */
function keysFromDataDir(dataDir: string): { publicKey: string; privateKey: string } | null {
  try {
    const keys = JSON.parse(readFileSync(path.join(dataDir, "vapid.json"), "utf8"));
    return typeof keys?.publicKey === "string" && typeof keys?.privateKey === "string"
      ? { publicKey: keys.publicKey, privateKey: keys.privateKey }
      : null;
  } catch {
    return null;
  }
}

/** The instance's VAPID keys: the environment's pair when set, else the database's (generated once). */
export async function loadVapidKeys(
  db: Db,
  env: Pick<Env, "DATA_DIR" | "APP_URL" | "VAPID_PUBLIC_KEY" | "VAPID_PRIVATE_KEY" | "VAPID_SUBJECT">,
): Promise<VapidKeys> {
  const subject =
    env.VAPID_SUBJECT ?? (env.APP_URL.startsWith("https://") ? env.APP_URL : "mailto:contact@fidele.local");
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject };
  }
  const keys = await sharedInstanceKey(db, "vapid", () => {
    const { publicKey, privateKey } = keysFromDataDir(env.DATA_DIR) ?? webpush.generateVAPIDKeys();
    return { publicKey, privateKey };
  });
  return { publicKey: keys.publicKey, privateKey: keys.privateKey, subject };
}

/**
 * Where a push endpoint may point (issue 22): the browsers' push services on port 443 — Chrome, Edge's Chromium,
 * Opera, Samsung (FCM), Firefox (autopush), Windows (WNS), Safari (APNs web push) — and the push services the
 * operator names in PUSH_SERVICE_ORIGINS. Checked when a device subscribes and again before every push.
 */
const BROWSER_PUSH_HOSTS = [
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

/** A reset or a hang-up on a connection: what reusing one the other side closed looks like. */
const isStaleConnection = (error: unknown) =>
  !(error instanceof webpush.WebPushError) &&
  ["ECONNRESET", "EPIPE"].includes((error as NodeJS.ErrnoException | null)?.code ?? "");

function retryAfterMs(value: string | undefined): number | null {
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** A VAPID token is good for up to 24 h (RFC 8292 §2): one per push service, signed twice a day, not per push. */
const VAPID_TOKEN_SECONDS = 12 * 60 * 60;

function createPushSender(keys: VapidKeys, policy: OutboundPolicy): PushSender {
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
      const attempt = () =>
        webpush.sendNotification(
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
      try {
        let result: Awaited<ReturnType<typeof attempt>> | undefined;
        for (let tries = 1; !result; tries++) {
          try {
            result = await attempt();
          } catch (error) {
            // A kept-alive connection the push service closed while it sat idle is reset when reused (a pause, a
            // quiet hour): the request never reached the service. Try again on another connection, twice at most;
            // the topic header makes a copy that did arrive replace, never add to, the one on the device.
            if (tries > 2 || !isStaleConnection(error)) throw error;
          }
        }
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
/** The sender for this instance's keys (`deps.vapid`, loaded at start) and its push services. */
export function pushSenderFor({
  vapid: keys,
  env,
}: {
  vapid: VapidKeys;
  env: Pick<Env, "PUSH_SERVICE_ORIGINS">;
}): PushSender {
  const key = `${keys.publicKey} ${env.PUSH_SERVICE_ORIGINS.join(",")}`;
  let sender = senders.get(key);
  if (!sender) {
    sender = createPushSender(keys, pushPolicy(env));
    senders.set(key, sender);
  }
  return sender;
}
