import type http2 from "node:http2";
import { outboundHttp2 } from "../../lib/outbound.ts";
import { APPLE_DEFAULT_HOSTS, type AppleConfig, walletPolicy } from "./wallet-config.ts";

/**
 * APNs for Wallet passes: HTTP/2, authenticated by the Pass Type ID certificate (the one that signs the passes), the
 * topic is the pass type, and the body an empty JSON dictionary — the push only tells the device to ask the web
 * service what changed; what the lock screen says comes from the pass's `changeMessage`.
 * https://developer.apple.com/documentation/usernotifications/sending-notification-requests-to-apns
 */
type ApnsOutcome =
  | { ok: true; status: number }
  /** `gone`: the token is no longer valid for this topic (410, or a token APNs calls bad): forget the device. */
  | { ok: false; status: number; reason: string; gone: boolean; retryAfterMs: number | null };

const TIMEOUT_MS = 10_000;
/** Tokens APNs says it will never deliver to again (its `reason` on a 400 or 410). */
const GONE_REASONS = new Set(["BadDeviceToken", "Unregistered", "DeviceTokenNotForTopic"]);

/** One session per configuration and process, reopened when APNs closes it (GOAWAY, idle timeout, error). */
const sessions = new WeakMap<AppleConfig, http2.ClientHttp2Session>();

function sessionFor(config: AppleConfig): http2.ClientHttp2Session {
  const open = sessions.get(config);
  if (open && !open.closed && !open.destroyed) return open;
  const session = outboundHttp2(config.apnsUrl, walletPolicy("apns", config.apnsUrl, APPLE_DEFAULT_HOSTS), {
    cert: config.certificates.signerCert,
    key: config.certificates.signerKey,
    ...(config.certificates.signerKeyPassphrase ? { passphrase: config.certificates.signerKeyPassphrase } : {}),
  });
  const forget = () => {
    if (sessions.get(config) === session) sessions.delete(config);
  };
  session.on("close", forget);
  session.on("goaway", forget);
  // An error reaches every request in flight; the session itself is dropped and the next push opens another.
  session.on("error", forget);
  session.unref();
  sessions.set(config, session);
  return session;
}

function retryAfterMs(value: string | string[] | undefined): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (!text) return null;
  const seconds = Number(text);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - Date.now());
}

/** One empty push to one device. Never throws: a failure is an outcome. */
export function pushToDevice(config: AppleConfig, pushToken: string): Promise<ApnsOutcome> {
  return new Promise((resolve) => {
    let session: http2.ClientHttp2Session;
    try {
      session = sessionFor(config);
    } catch (error) {
      resolve({ ok: false, status: 0, reason: String(error), gone: false, retryAfterMs: null });
      return;
    }
    const body = "{}";
    const request = session.request({
      ":method": "POST",
      ":path": `/3/device/${encodeURIComponent(pushToken)}`,
      "apns-topic": config.passTypeId,
      "content-type": "application/json",
      "content-length": String(body.length),
    });
    let status = 0;
    let headers: http2.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    request.setTimeout(TIMEOUT_MS, () => request.close(http2Cancel()));
    request.on("response", (h) => {
      headers = h;
      status = Number(h[":status"] ?? 0);
    });
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (status === 200) {
        resolve({ ok: true, status });
        return;
      }
      let reason = `HTTP ${status}`;
      try {
        reason = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { reason?: string }).reason ?? reason;
      } catch {
        // not JSON: keep the status
      }
      resolve({
        ok: false,
        status,
        reason,
        gone: status === 410 || (status === 400 && GONE_REASONS.has(reason)),
        retryAfterMs: status === 429 || status >= 500 ? (retryAfterMs(headers["retry-after"]) ?? 60_000) : null,
      });
    });
    request.on("error", (error: Error) =>
      resolve({ ok: false, status: 0, reason: error.message, gone: false, retryAfterMs: 60_000 }),
    );
    request.end(body);
  });
}

/** NGHTTP2_CANCEL: the stream is abandoned (our timeout). */
const http2Cancel = () => 8;
