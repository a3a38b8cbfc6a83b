import dns from "node:dns";
import http from "node:http";
import http2 from "node:http2";
import https from "node:https";
import net from "node:net";
import tls from "node:tls";

/**
 * The one door for every request the server makes to an address it was given (issue 22, ADR 0031): push
 * endpoints, SMS gateways, and whatever comes next. SMTP (SMTP_URL, nodemailer) is the operator's own server and
 * stays outside.
 *
 * A destination passes when
 * - its origin is one the operator wrote in the configuration (`trustedOrigins`): reached as written, even on a
 *   private address (a self-hosted push service, SMS Gateway for Android on the shop's network); or
 * - its scheme and host are among the policy's (`hosts`, exact or `*.suffix`), on an allowed port, the host is a
 *   name (never an IP literal, in any form), and every address the name resolves to is public.
 * The name is resolved inside the connection (the agents' `lookup`), so the address checked is the address
 * connected to: a DNS answer that changes between a check and the connection (rebinding) cannot slip through.
 * Refusals say "refused" and nothing about the far side; callers never pass the far side's answer to the person
 * who gave the address.
 */
export type OutboundPolicy = {
  /** What the request is for (logs only). */
  purpose: string;
  /**
   * Host names allowed: "fcm.googleapis.com" or "*.notify.windows.com" (any subdomain, not the bare suffix); "*":
   * any name (a shop's webhook receiver), still only on public addresses.
   */
  hosts: readonly string[];
  protocols: readonly ("https:" | "http:")[];
  /** Ports allowed with those hosts; absent: any. */
  ports?: readonly number[];
  /** Origins ("https://push.example.org:8443") the operator configured: trusted as written. */
  trustedOrigins: readonly string[];
};

type Destination = { url: URL; trusted: boolean };
type Checked = { ok: true; destination: Destination } | { ok: false; reason: string };

export class OutboundRefused extends Error {
  constructor(reason: string) {
    super(`outbound request refused: ${reason}`);
    this.name = "OutboundRefused";
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Addresses. Public means globally routable unicast: everything else (RFC 6890 special-purpose registries) is
// refused, so a name pointed at the host itself, its network, a cloud metadata service or a carrier NAT leads
// nowhere.

/** IPv4 ranges that are not the public internet (IANA IPv4 Special-Purpose Address Registry, multicast, reserved). */
const IPV4_NOT_PUBLIC: readonly [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8], // private (RFC 1918)
  ["100.64.0.0", 10], // carrier-grade NAT (RFC 6598)
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local, cloud metadata services (169.254.169.254)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation (TEST-NET-1)
  ["192.88.99.0", 24], // 6to4 relay anycast (deprecated)
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation (TEST-NET-2)
  ["203.0.113.0", 24], // documentation (TEST-NET-3)
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, and 255.255.255.255
];

/** IPv6 outside 2000::/3 is never public; inside it, these are not either (IANA IPv6 Special-Purpose Registry). */
const IPV6_NOT_PUBLIC: readonly [string, number][] = [
  ["2001::", 23], // IETF protocol assignments (Teredo 2001::/32 included)
  ["2001:db8::", 32], // documentation
  ["2002::", 16], // 6to4: the IPv4 address inside could be anything
  ["3fff::", 20], // documentation (RFC 9637)
];

function ipv4ToInt(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4) return null;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const n = Number(part);
    if (n > 255) return null;
    value = value * 256 + n;
  }
  return value;
}

/** The 16 bytes of an IPv6 address (with "::" and a trailing dotted IPv4), or null. */
function ipv6ToBytes(address: string): number[] | null {
  if (net.isIPv6(address) === false) return null;
  let text = address.toLowerCase().replace(/%.*$/, "");
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const v4 = ipv4ToInt(dotted[1]);
    if (v4 === null) return null;
    text = `${text.slice(0, -dotted[1].length)}${((v4 >>> 16) & 0xffff).toString(16)}:${(v4 & 0xffff).toString(16)}`;
  }
  const [head = "", tail] = text.split("::");
  const groups = (s: string) => (s === "" ? [] : s.split(":"));
  const left = groups(head);
  const right = tail === undefined ? [] : groups(tail);
  const missing = 8 - left.length - right.length;
  if (tail === undefined ? missing !== 0 : missing < 1) return null;
  const all = [...left, ...Array<string>(tail === undefined ? 0 : missing).fill("0"), ...right];
  const bytes: number[] = [];
  for (const g of all) {
    const n = Number.parseInt(g, 16);
    if (!/^[0-9a-f]{1,4}$/.test(g) || Number.isNaN(n)) return null;
    bytes.push(n >> 8, n & 0xff);
  }
  return bytes;
}

function inPrefix(bytes: readonly number[], prefix: readonly number[], bits: number): boolean {
  for (let i = 0; i < bits; i++) {
    const byte = i >> 3;
    const mask = 0x80 >> (i & 7);
    if (((bytes[byte] ?? 0) & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

const ipv4Bytes = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];

function isPublicIpv4(address: string): boolean {
  const n = ipv4ToInt(address);
  if (n === null) return false;
  const bytes = ipv4Bytes(n);
  return !IPV4_NOT_PUBLIC.some(([base, bits]) => inPrefix(bytes, ipv4Bytes(ipv4ToInt(base)!), bits));
}

function isPublicIpv6(address: string): boolean {
  const bytes = ipv6ToBytes(address);
  if (!bytes) return false;
  // IPv4-mapped (::ffff:a.b.c.d): what is reached is the IPv4 address inside.
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) {
    return isPublicIpv4(bytes.slice(12).join("."));
  }
  // Global unicast is 2000::/3; ::1, ::, fc00::/7, fe80::/10, ff00::/8, 64:ff9b::/96 (NAT64)… all lie outside it.
  if ((bytes[0]! & 0xe0) !== 0x20) return false;
  return !IPV6_NOT_PUBLIC.some(([base, bits]) => inPrefix(bytes, ipv6ToBytes(base)!, bits));
}

/** A resolved address (IPv4 dotted or IPv6 text) that is globally routable unicast. Anything unparsable: false. */
export function isPublicAddress(address: string): boolean {
  const family = net.isIP(address.replace(/^\[|\]$/g, ""));
  if (family === 4) return isPublicIpv4(address);
  if (family === 6) return isPublicIpv6(address.replace(/^\[|\]$/g, ""));
  return false;
}

/**
 * A URL host that is an IP address rather than a name. WHATWG URL parsing has already turned the other IPv4
 * spellings of special schemes (2130706433, 0x7f.1, 0177.0.0.1, 127.1, a trailing dot) into dotted quads, so this
 * sees every form; a host that ends in a number but is not a valid IPv4 fails URL parsing altogether.
 */
export function isIpLiteralHost(hostname: string): boolean {
  const bare = hostname.replace(/^\[|\]$/g, "");
  return net.isIP(bare) !== 0 || /^[\d.]+$/.test(bare);
}

// ---------------------------------------------------------------------------------------------------------------
// The check of a URL against a policy (no network).

const defaultPort = (protocol: string) => (protocol === "https:" ? 443 : 80);

function hostAllowed(hostname: string, patterns: readonly string[]): boolean {
  return patterns.some((pattern) =>
    pattern === "*"
      ? true
      : pattern.startsWith("*.")
        ? hostname.endsWith(pattern.slice(1)) && hostname.length > pattern.length - 1
        : hostname === pattern,
  );
}

/** Normalises an origin as the URL parser would ("HTTPS://Push.Example:443" → "https://push.example"). */
function normaliseOrigin(origin: string): string | null {
  try {
    return new URL(origin).origin;
  } catch {
    return null;
  }
}

export function checkDestination(raw: string, policy: OutboundPolicy): Checked {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "not a URL" };
  }
  if (!policy.protocols.includes(url.protocol as "https:")) return { ok: false, reason: "scheme" };
  if (url.username || url.password) return { ok: false, reason: "credentials in the address" };
  if (policy.trustedOrigins.some((o) => normaliseOrigin(o) === url.origin)) {
    return { ok: true, destination: { url, trusted: true } };
  }
  const hostname = url.hostname.toLowerCase().replace(/\.$/, "");
  if (isIpLiteralHost(hostname)) return { ok: false, reason: "IP address instead of a name" };
  if (!hostAllowed(hostname, policy.hosts)) return { ok: false, reason: "host not allowed" };
  const port = url.port ? Number(url.port) : defaultPort(url.protocol);
  if (policy.ports && !policy.ports.includes(port)) return { ok: false, reason: "port not allowed" };
  return { ok: true, destination: { url, trusted: false } };
}

// ---------------------------------------------------------------------------------------------------------------
// Connections.

type LookupAddress = { address: string; family: number };
export type Resolve = (hostname: string) => Promise<LookupAddress[]>;

const systemResolve: Resolve = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/**
 * A `lookup` for net/tls connections that resolves the name and refuses it unless every address is public; the
 * connection then uses exactly those addresses (no second resolution).
 */
function guardedLookup(resolve: Resolve = systemResolve): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    resolve(hostname).then(
      (addresses) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter((a) => wanted === 0 || a.family === wanted);
        if (usable.length === 0 || addresses.some((a) => !isPublicAddress(a.address))) {
          const error = Object.assign(new OutboundRefused("name resolves to a non-public address"), {
            code: "ENOTPUBLIC",
          });
          callback(error);
          return;
        }
        if (options.all) callback(null, usable);
        else callback(null, usable[0]!.address, usable[0]!.family);
      },
      (error: unknown) => callback(error),
    );
  }) as net.LookupFunction;
}

/** Extra certificate authorities (tests and the benchmark reach local services with their own). */
let extraCa: Buffer | undefined;
const agents = new Map<string, http.Agent>();

/** Tests: trust this certificate authority too (on top of the system's), for the door's HTTPS connections. */
export function trustCertificateAuthority(ca: Buffer | undefined) {
  extraCa = ca;
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** The agent for a destination: keep-alive, and for a destination that is not trusted, the guarded lookup. */
export function agentFor(destination: Destination, resolve?: Resolve): http.Agent {
  const secure = destination.url.protocol === "https:";
  const key = `${secure ? "s" : "p"}${destination.trusted ? "t" : "g"}`;
  if (resolve) return makeAgent(secure, destination.trusted, resolve);
  let agent = agents.get(key);
  if (!agent) {
    agent = makeAgent(secure, destination.trusted);
    agents.set(key, agent);
  }
  return agent;
}

function makeAgent(secure: boolean, trusted: boolean, resolve?: Resolve): http.Agent {
  const options = {
    keepAlive: true,
    maxSockets: 64,
    ...(trusted ? {} : { lookup: guardedLookup(resolve) }),
  };
  return secure
    ? new https.Agent({ ...options, ...(extraCa ? { ca: [...tls.rootCertificates, extraCa.toString()] } : {}) })
    : new http.Agent(options);
}

export type OutboundResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** Answers longer than this are cut (a gateway's JSON is a few hundred bytes). */
const MAX_BODY_BYTES = 64 * 1024;

/**
 * One request through the door: refused (OutboundRefused) unless the policy allows the destination; no redirect
 * is followed. Network failures reject as usual.
 *
 * A kept-alive socket the far side closed while it sat idle fails the next request sent on it (ECONNRESET before any
 * answer): that request never reached the application, so it is sent once more on a new connection (Node's own
 * advice for `request.reusedSocket`). A failure on a fresh connection is the caller's.
 */
export function outboundRequest(
  raw: string,
  policy: OutboundPolicy,
  init: { method: string; headers?: Record<string, string>; body?: string; timeoutMs: number },
): Promise<OutboundResponse> {
  const checked = checkDestination(raw, policy);
  if (!checked.ok) return Promise.reject(new OutboundRefused(`${policy.purpose}: ${checked.reason}`));
  return sendOnce(checked.destination, init).catch((error: unknown) => {
    if (!(error instanceof StaleSocket)) throw error;
    return sendOnce(checked.destination, init).catch((again: unknown) => {
      throw again instanceof StaleSocket ? again.cause : again;
    });
  });
}

/** The far side closed a kept-alive socket before answering anything on it. */
class StaleSocket extends Error {}

function sendOnce(
  destination: Destination,
  init: { method: string; headers?: Record<string, string>; body?: string; timeoutMs: number },
): Promise<OutboundResponse> {
  const { url } = destination;
  const client = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: init.method,
        headers: {
          ...init.headers,
          ...(init.body !== undefined ? { "content-length": String(Buffer.byteLength(init.body)) } : {}),
        },
        agent: agentFor(destination),
        timeout: init.timeoutMs,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size <= MAX_BODY_BYTES) chunks.push(chunk);
        });
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        response.on("error", reject);
      },
    );
    request.on("timeout", () => request.destroy(new Error(`timed out after ${init.timeoutMs} ms`)));
    request.on("error", (error: NodeJS.ErrnoException) => {
      const stale = request.reusedSocket && (error.code === "ECONNRESET" || error.message === "socket hang up");
      reject(stale ? new StaleSocket(error.message, { cause: error }) : error);
    });
    request.end(init.body);
  });
}

/**
 * An HTTP/2 session through the door (APNs, which speaks nothing else): refused (OutboundRefused) unless the policy
 * allows the origin; a name that is not the operator's is resolved by the guarded lookup, like the agents' above.
 * `tls` carries a client certificate when the far side asks for one (APNs takes the Pass Type ID certificate).
 */
export function outboundHttp2(
  raw: string,
  policy: OutboundPolicy,
  tlsOptions: { cert?: string; key?: string; passphrase?: string } = {},
): http2.ClientHttp2Session {
  const checked = checkDestination(raw, policy);
  if (!checked.ok) throw new OutboundRefused(`${policy.purpose}: ${checked.reason}`);
  const { url, trusted } = checked.destination;
  return http2.connect(url.origin, {
    ...tlsOptions,
    ...(trusted ? {} : { lookup: guardedLookup() }),
    ...(extraCa ? { ca: [...tls.rootCertificates, extraCa.toString()] } : {}),
  });
}
