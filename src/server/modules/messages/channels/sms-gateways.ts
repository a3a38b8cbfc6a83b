import { createHash } from "node:crypto";
import { countSegments } from "../../../../domain/messages/sms-segments.ts";
import type { Env } from "../../../env.ts";
import { type OutboundPolicy, type OutboundResponse, outboundRequest } from "../../../lib/outbound.ts";

/**
 * One interface for every SMS gateway a French shop uses, each a plain HTTP client
 * (fetch) of the gateway's own API, chosen by SMS_PROVIDER:
 * - brevo: POST /v3/transactionalSMS/send, header `api-key`, JSON.
 * - ovh: POST /1.0/sms/{service}/jobs, signed with the application secret and consumer
 *   key (X-Ovh-Application, X-Ovh-Consumer, X-Ovh-Timestamp, X-Ovh-Signature "$1$" + SHA-1),
 *   the timestamp taken from the API's own clock (GET /auth/time).
 * - twilio: POST /2010-04-01/Accounts/{sid}/Messages.json, basic auth, form-encoded.
 * - smsgate: SMS Gateway for Android (a phone of the shop's), POST {base}/message, basic
 *   auth, JSON { textMessage: { text }, phoneNumbers }; the device's local server
 *   (http://<phone>:8080) or the cloud (https://api.sms-gate.app/3rdparty/v1).
 * - outbox: no gateway; the SMS stays in `sms_outbox` for the platform admin.
 * SMS_API_URL replaces each gateway's address (tests point them at a local server).
 */
export type SmsProviderName = "brevo" | "ovh" | "twilio" | "smsgate" | "outbox";

type SmsRequest = {
  /** E.164. */
  to: string;
  text: string;
  /** Marketing (a campaign) or transactional (a test SMS). */
  marketing: boolean;
};

export type SmsResult =
  | { ok: true; status: number; id: string | null; answer: string }
  /** retryAfterMs: the gateway asked us to wait (429); the SMS did not leave. */
  | { ok: false; status: number | null; answer: string; retryAfterMs: number | null };

export interface SmsProvider {
  name: SmsProviderName;
  /** The number in « STOP au … » (null: none configured). */
  stopNumber: string | null;
  /**
   * The gateway appends its own opt-out clause to marketing SMS (OVH does, "STOP au
   * <short code>", unless noStopClause): ours is then left out of what we send.
   */
  addsOwnStopClause: boolean;
  send: (request: SmsRequest) => Promise<SmsResult>;
}

const TIMEOUT_MS = 15_000;
const cut = (s: string) => (s.length > 500 ? `${s.slice(0, 497)}…` : s);

/**
 * Where a gateway may be reached (issue 22, lib/outbound.ts): the address the operator wrote in SMS_API_URL, as
 * written (SMS Gateway for Android is often a phone on the shop's own network); else the gateway's public API host
 * on port 443, its name resolved and checked at connection time.
 */
export function gatewayPolicy(config: Pick<Env, "SMS_PROVIDER" | "SMS_API_URL">, defaultBase: string): OutboundPolicy {
  const purpose = `sms ${config.SMS_PROVIDER}`;
  return config.SMS_API_URL
    ? { purpose, hosts: [], protocols: ["https:", "http:"], trustedOrigins: [new URL(config.SMS_API_URL).origin] }
    : { purpose, hosts: [new URL(defaultBase).hostname], protocols: ["https:"], ports: [443], trustedOrigins: [] };
}

type CallInit = { method: string; headers: Record<string, string>; body?: string };

async function call(url: string, init: CallInit, policy: OutboundPolicy): Promise<SmsResult & { json: unknown }> {
  let response: OutboundResponse;
  try {
    response = await outboundRequest(url, policy, { ...init, timeoutMs: TIMEOUT_MS });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      status: null,
      answer: cut(`Passerelle injoignable : ${reason}`),
      retryAfterMs: null,
      json: null,
    };
  }
  const body = response.body;
  let json: unknown = null;
  try {
    json = body ? JSON.parse(body) : null;
  } catch {
    json = null;
  }
  const answer = cut(`HTTP ${response.status} ${body}`.trim());
  if (response.status >= 200 && response.status < 300)
    return { ok: true, status: response.status, id: null, answer, json };
  let retryAfterMs: number | null = null;
  if (response.status === 429) {
    const header = response.headers["retry-after"];
    const seconds = typeof header === "string" && /^\d+$/.test(header) ? Number(header) : 60;
    retryAfterMs = Math.min(seconds, 3600) * 1000;
  }
  return { ok: false, status: response.status, answer, retryAfterMs, json };
}

const field = (json: unknown, key: string): unknown =>
  json && typeof json === "object" ? (json as Record<string, unknown>)[key] : undefined;
const idOf = (value: unknown) => (typeof value === "string" || typeof value === "number" ? String(value) : null);

/** A POST signed with HTTP Basic authentication, as Twilio and SMS Gateway for Android take it. */
function postWithBasicAuth(
  url: string,
  [user, password]: [string, string],
  headers: Record<string, string>,
  body: string,
  policy: OutboundPolicy,
) {
  const authorization = `Basic ${Buffer.from(`${user}:${password}`).toString("base64")}`;
  return call(url, { method: "POST", headers: { authorization, ...headers }, body }, policy);
}

const trimSlash = (url: string) => url.replace(/\/+$/, "");

type Config = Pick<
  Env,
  | "SMS_PROVIDER"
  | "SMS_API_URL"
  | "SMS_SENDER"
  | "SMS_STOP_NUMBER"
  | "BREVO_API_KEY"
  | "OVH_APP_KEY"
  | "OVH_APP_SECRET"
  | "OVH_CONSUMER_KEY"
  | "OVH_SMS_SERVICE"
  | "TWILIO_ACCOUNT_SID"
  | "TWILIO_AUTH_TOKEN"
  | "SMSGATE_USERNAME"
  | "SMSGATE_PASSWORD"
>;

function need(config: Config, ...keys: (keyof Config)[]): void {
  const missing = keys.filter((k) => !config[k]);
  if (missing.length > 0) {
    throw new Error(`SMS_PROVIDER=${config.SMS_PROVIDER} needs ${missing.join(", ")}`);
  }
}

function stopNumberOf(config: Config): string | null {
  if (config.SMS_STOP_NUMBER) return config.SMS_STOP_NUMBER;
  return config.SMS_SENDER && /^\+?\d{4,15}$/.test(config.SMS_SENDER) ? config.SMS_SENDER : null;
}

function brevo(config: Config): SmsProvider {
  need(config, "BREVO_API_KEY", "SMS_SENDER");
  const defaultBase = "https://api.brevo.com";
  const policy = gatewayPolicy(config, defaultBase);
  const url = `${trimSlash(config.SMS_API_URL ?? defaultBase)}/v3/transactionalSMS/send`;
  return {
    name: "brevo",
    stopNumber: stopNumberOf(config),
    addsOwnStopClause: false,
    async send({ to, text, marketing }) {
      const result = await call(
        url,
        {
          method: "POST",
          headers: { accept: "application/json", "content-type": "application/json", "api-key": config.BREVO_API_KEY! },
          body: JSON.stringify({
            sender: config.SMS_SENDER,
            recipient: to.replace(/^\+/, ""),
            content: text,
            type: marketing ? "marketing" : "transactional",
            tag: marketing ? "fidele-campagne" : "fidele-test",
            unicodeEnabled: countSegments(text).encoding === "UCS-2",
          }),
        },
        policy,
      );
      return result.ok
        ? { ...result, id: idOf(field(result.json, "messageId") ?? field(result.json, "reference")) }
        : result;
    },
  };
}

function ovh(config: Config): SmsProvider {
  need(config, "OVH_APP_KEY", "OVH_APP_SECRET", "OVH_CONSUMER_KEY", "OVH_SMS_SERVICE");
  const defaultBase = "https://eu.api.ovh.com/1.0";
  const policy = gatewayPolicy(config, defaultBase);
  const base = trimSlash(config.SMS_API_URL ?? defaultBase);
  const url = `${base}/sms/${encodeURIComponent(config.OVH_SMS_SERVICE!)}/jobs`;
  // The signature's timestamp must be the API's: its clock minus ours, asked once.
  let delta: number | null = null;
  const now = async () => {
    if (delta === null) {
      try {
        const response = await outboundRequest(`${base}/auth/time`, policy, { method: "GET", timeoutMs: TIMEOUT_MS });
        const server = Number(response.body);
        delta = Number.isFinite(server) && response.status === 200 ? server - Math.floor(Date.now() / 1000) : 0;
      } catch {
        delta = 0;
      }
    }
    return Math.floor(Date.now() / 1000) + delta;
  };
  return {
    name: "ovh",
    stopNumber: stopNumberOf(config),
    addsOwnStopClause: true,
    async send({ to, text, marketing }) {
      const body = JSON.stringify({
        message: text,
        receivers: [to],
        ...(config.SMS_SENDER ? { sender: config.SMS_SENDER } : { senderForResponse: true }),
        // OVH adds "STOP au <short code>" to commercial SMS itself; a test SMS is not commercial.
        noStopClause: !marketing,
        charset: "UTF-8",
        coding: countSegments(text).encoding === "UCS-2" ? "8bit" : "7bit",
        priority: "high",
        validityPeriod: 2880,
      });
      const timestamp = String(await now());
      const signature = `$1$${createHash("sha1")
        .update([config.OVH_APP_SECRET, config.OVH_CONSUMER_KEY, "POST", url, body, timestamp].join("+"))
        .digest("hex")}`;
      const result = await call(
        url,
        {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "X-Ovh-Application": config.OVH_APP_KEY!,
            "X-Ovh-Consumer": config.OVH_CONSUMER_KEY!,
            "X-Ovh-Timestamp": timestamp,
            "X-Ovh-Signature": signature,
          },
          body,
        },
        policy,
      );
      if (!result.ok) return result;
      const invalid = field(result.json, "invalidReceivers");
      if (Array.isArray(invalid) && invalid.includes(to)) {
        return { ok: false, status: result.status, answer: result.answer, retryAfterMs: null };
      }
      const ids = field(result.json, "ids");
      return { ...result, id: Array.isArray(ids) ? idOf(ids[0]) : null };
    },
  };
}

function twilio(config: Config): SmsProvider {
  need(config, "TWILIO_ACCOUNT_SID", "TWILIO_AUTH_TOKEN", "SMS_SENDER");
  const defaultBase = "https://api.twilio.com";
  const policy = gatewayPolicy(config, defaultBase);
  const base = trimSlash(config.SMS_API_URL ?? defaultBase);
  const url = `${base}/2010-04-01/Accounts/${encodeURIComponent(config.TWILIO_ACCOUNT_SID!)}/Messages.json`;
  return {
    name: "twilio",
    stopNumber: stopNumberOf(config),
    addsOwnStopClause: false,
    async send({ to, text }) {
      const result = await postWithBasicAuth(
        url,
        [config.TWILIO_ACCOUNT_SID!, config.TWILIO_AUTH_TOKEN!],
        { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        new URLSearchParams({ To: to, From: config.SMS_SENDER!, Body: text }).toString(),
        policy,
      );
      return result.ok ? { ...result, id: idOf(field(result.json, "sid")) } : result;
    },
  };
}

function smsgate(config: Config): SmsProvider {
  need(config, "SMS_API_URL", "SMSGATE_USERNAME", "SMSGATE_PASSWORD");
  const policy = gatewayPolicy(config, config.SMS_API_URL!);
  const url = `${trimSlash(config.SMS_API_URL!)}/message`;
  return {
    name: "smsgate",
    stopNumber: stopNumberOf(config),
    addsOwnStopClause: false,
    async send({ to, text }) {
      const result = await postWithBasicAuth(
        url,
        [config.SMSGATE_USERNAME!, config.SMSGATE_PASSWORD!],
        { "content-type": "application/json" },
        JSON.stringify({ textMessage: { text }, phoneNumbers: [to] }),
        policy,
      );
      if (!result.ok) return result;
      if (field(result.json, "state") === "Failed") {
        return { ok: false, status: result.status, answer: result.answer, retryAfterMs: null };
      }
      return { ...result, id: idOf(field(result.json, "id")) };
    },
  };
}

function outbox(config: Config): SmsProvider {
  return {
    name: "outbox",
    stopNumber: stopNumberOf(config) ?? "00000",
    addsOwnStopClause: false,
    async send() {
      return {
        ok: true,
        status: 0,
        id: null,
        answer: "Aucune passerelle SMS configurée : gardé dans la boîte d'envoi.",
      };
    },
  };
}

/** The gateway the environment names (throws at start when its credentials are missing). */
export function createSmsProvider(config: Config): SmsProvider {
  switch (config.SMS_PROVIDER) {
    case "brevo":
      return brevo(config);
    case "ovh":
      return ovh(config);
    case "twilio":
      return twilio(config);
    case "smsgate":
      return smsgate(config);
    default:
      return outbox(config);
  }
}

const providers = new WeakMap<object, SmsProvider>();
/** One provider per environment object (the OVH clock delta is kept across sends). */
export function smsProviderFor(env: Env): SmsProvider {
  let provider = providers.get(env);
  if (!provider) {
    provider = createSmsProvider(env);
    providers.set(env, provider);
  }
  return provider;
}
