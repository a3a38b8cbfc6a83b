import { readFileSync } from "node:fs";
import type { Env } from "../../env.ts";
import type { OutboundPolicy } from "../../lib/outbound.ts";

/**
 * The operator's wallet settings (README « Configuration », ADR 0045), read once per configuration. Without them the
 * feature is off: the pages say so and offer no button, and nothing here is ever an error.
 */
export type AppleConfig = {
  passTypeId: string;
  teamId: string;
  /** What passkit-generator signs with, and what authenticates to APNs (the same Pass Type ID certificate). */
  certificates: { wwdr: string; signerCert: string; signerKey: string; signerKeyPassphrase?: string };
  apnsUrl: string;
  /** The pass's `webServiceURL`: the PassKit web service of modules/wallet (wallet.routes.ts). */
  webServiceUrl: string;
};

export type GoogleConfig = {
  issuerId: string;
  clientEmail: string;
  privateKey: string;
  tokenUrl: string;
  apiUrl: string;
  /** Where the save link may be opened from (the JWT's `origins`). */
  origins: string[];
  /** Where its requests may go (lib/outbound.ts): the addresses the operator set, as written; else Google's on 443. */
  policy: OutboundPolicy;
};

type WalletConfig = { apple: AppleConfig | null; google: GoogleConfig | null };

const APNS_PRODUCTION = "https://api.push.apple.com";
const GOOGLE_API = "https://walletobjects.googleapis.com";
const GOOGLE_TOKEN = "https://oauth2.googleapis.com/token";

/** A setting holding a PEM, or the path of a file that holds one (env.ts checked which at start). */
const pemOf = (value: string) => (value.trimStart().startsWith("-----BEGIN") ? value : readFileSync(value, "utf8"));

const configs = new WeakMap<Env, WalletConfig>();

export function walletConfig(env: Env): WalletConfig {
  let config = configs.get(env);
  if (!config) {
    config = { apple: appleOf(env), google: googleOf(env) };
    configs.set(env, config);
  }
  return config;
}

function appleOf(env: Env): AppleConfig | null {
  const { APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY, APPLE_WWDR_CERT } = env;
  if (!APPLE_PASS_TYPE_ID || !APPLE_TEAM_ID || !APPLE_PASS_CERT || !APPLE_PASS_KEY || !APPLE_WWDR_CERT) return null;
  return {
    passTypeId: APPLE_PASS_TYPE_ID,
    teamId: APPLE_TEAM_ID,
    certificates: {
      wwdr: pemOf(APPLE_WWDR_CERT),
      signerCert: pemOf(APPLE_PASS_CERT),
      signerKey: pemOf(APPLE_PASS_KEY),
      ...(env.APPLE_PASS_KEY_PASSPHRASE ? { signerKeyPassphrase: env.APPLE_PASS_KEY_PASSPHRASE } : {}),
    },
    apnsUrl: env.APPLE_APNS_URL ?? APNS_PRODUCTION,
    webServiceUrl: `${env.APP_URL.replace(/\/+$/, "")}/api/wallet/apple`,
  };
}

function googleOf(env: Env): GoogleConfig | null {
  const { GOOGLE_WALLET_ISSUER_ID, GOOGLE_WALLET_SERVICE_ACCOUNT } = env;
  if (!GOOGLE_WALLET_ISSUER_ID || !GOOGLE_WALLET_SERVICE_ACCOUNT) return null;
  const text = GOOGLE_WALLET_SERVICE_ACCOUNT.trimStart().startsWith("{")
    ? GOOGLE_WALLET_SERVICE_ACCOUNT
    : readFileSync(GOOGLE_WALLET_SERVICE_ACCOUNT, "utf8");
  const key = JSON.parse(text) as { client_email?: string; private_key?: string; token_uri?: string };
  if (!key.client_email || !key.private_key) {
    throw new Error("GOOGLE_WALLET_SERVICE_ACCOUNT: the JSON key has no client_email or private_key");
  }
  const trusted = [env.GOOGLE_WALLET_API_URL, env.GOOGLE_WALLET_TOKEN_URL].filter((u): u is string => Boolean(u));
  return {
    issuerId: GOOGLE_WALLET_ISSUER_ID,
    clientEmail: key.client_email,
    privateKey: key.private_key,
    tokenUrl: env.GOOGLE_WALLET_TOKEN_URL ?? key.token_uri ?? GOOGLE_TOKEN,
    apiUrl: (env.GOOGLE_WALLET_API_URL ?? GOOGLE_API).replace(/\/+$/, ""),
    origins: [new URL(env.APP_URL).origin],
    policy: {
      purpose: "google wallet",
      hosts: [GOOGLE_API, GOOGLE_TOKEN].map((d) => new URL(d).hostname),
      protocols: [...new Set(["https:" as const, ...trusted.map((u) => new URL(u).protocol as "https:" | "http:")])],
      ports: [443],
      trustedOrigins: trusted.map((u) => new URL(u).origin),
    },
  };
}

/** What the pages show: which wallets this instance offers. */
export function walletStatus(env: Env) {
  const config = walletConfig(env);
  return { apple: config.apple !== null, google: config.google !== null };
}

/**
 * Where the wallet requests may go (lib/outbound.ts, ADR 0031): an address the operator set is reached as written
 * (the tests' local APNs and Google servers); otherwise only the public service's own host on port 443, its name
 * resolved and checked at connection time.
 */
export function walletPolicy(
  purpose: string,
  configured: string | undefined,
  defaults: readonly string[],
): OutboundPolicy {
  return configured && !defaults.includes(configured)
    ? { purpose, hosts: [], protocols: ["https:", "http:"], trustedOrigins: [new URL(configured).origin] }
    : {
        purpose,
        hosts: defaults.map((d) => new URL(d).hostname),
        protocols: ["https:"],
        ports: [443],
        trustedOrigins: [],
      };
}

export const APPLE_DEFAULT_HOSTS = [APNS_PRODUCTION] as const;
