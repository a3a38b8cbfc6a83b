import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isValidTimeZone } from "../domain/loyalty/time.ts";
import { DEFAULT_RECIPIENT_DAILY_CAP } from "../domain/messages/frequency-cap.ts";
import { parseDays, parseHours } from "../domain/messages/send-window.ts";
import { DEFAULT_DATA_DIR } from "./db/data-dir.ts";

/** "https://host[:port]" and nothing more (no path, query or credentials). */
function isHttpsOrigin(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  return (
    url.protocol === "https:" && url.pathname === "/" && !url.search && !url.hash && !url.username && !url.password
  );
}

/** Origins separated by commas (unset: none), each accepted by `accepts`, kept as their bare origin. */
const originList = (accepts: (origin: string) => boolean, message: string) =>
  z
    .string()
    .optional()
    .transform((v) =>
      (v ?? "")
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    )
    .refine((origins) => origins.every(accepts), message)
    .transform((origins) => origins.map((o) => new URL(o).origin));

/** The only reader of process.env. Fails at start with the list of bad variables. */
const boolish = z
  .enum(["1", "0", "true", "false", "yes", "no", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes");

/**
 * What the legal notice (/mentions-legales) shows until the operator sets the LEGAL_* variables: a running
 * instance with these is not compliant, so the server warns at start and the platform admin sees it on /admin.
 */
const LEGAL_PLACEHOLDERS = {
  LEGAL_COMPANY: "Fidèle (instance auto-hébergée)",
  LEGAL_ADDRESS: "Adresse à renseigner par l'exploitant",
  LEGAL_DIRECTOR: "Directeur de la publication à renseigner",
  LEGAL_HOST: "Hébergeur à renseigner par l'exploitant",
  LEGAL_CONTACT: "contact@fidele.local",
} as const;

/** The LEGAL_* variables still at their placeholder. */
export const unsetLegalDetails = (env: Env) =>
  (Object.keys(LEGAL_PLACEHOLDERS) as (keyof typeof LEGAL_PLACEHOLDERS)[]).filter((key) => env[key] === LEGAL_PLACEHOLDERS[key]);

/** A PEM given inline ("-----BEGIN …") or as the path of a file holding one (wallet certificates and keys). */
const pemSetting = (name: string) =>
  z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || v.trimStart().startsWith("-----BEGIN") || existsSync(v),
      `${name}: a PEM (-----BEGIN …) or the path of a file holding one`,
    );

/** An address the operator gives (reached as written, ADR 0031): unset or empty means the service's public one. */
const optionalUrl = z.string().url().optional().or(z.literal("").transform(() => undefined));

const EnvSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("production"),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default(DEFAULT_DATA_DIR),
  DATABASE_URL: z.string().url().optional().or(z.literal("").transform(() => undefined)),
  /**
   * The owner role's address (PostgreSQL): migrations and grants run as it, and the server connects as DATABASE_URL's
   * role, which may only insert into and read the audit log (ADR 0034). Unset: DATABASE_URL does both (a warning).
   */
  DATABASE_OWNER_URL: z.string().url().optional().or(z.literal("").transform(() => undefined)),
  APP_URL: z.string().url().optional(),
  SECRET: z.string().min(32, "SECRET must be at least 32 characters").optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default("Fidèle <no-reply@fidele.local>"),
  /** Marketing e-mail (newsletters, composer messages by e-mail): at most this many per second, all processes together. */
  EMAIL_RATE_PER_SECOND: z.coerce.number().min(0.1).max(1000).default(10),
  /** Shared secret of the bounce webhook (POST /api/email/bounces, Authorization: Bearer …); unset: webhook off. */
  /** Opens of marketing e-mail counted with an invisible image (CNIL: off unless the operator turns it on). */
  EMAIL_OPEN_TRACKING: boolish,
  EMAIL_WEBHOOK_SECRET: z.string().min(16, "EMAIL_WEBHOOK_SECRET must be at least 16 characters").optional(),
  TRUST_PROXY: boolish,
  SEED_DEMO: z
    .enum(["1", "0", "true", "false"])
    .optional()
    .transform((v) => v !== "0" && v !== "false"),
  LEGAL_COMPANY: z.string().default(LEGAL_PLACEHOLDERS.LEGAL_COMPANY),
  LEGAL_ADDRESS: z.string().default(LEGAL_PLACEHOLDERS.LEGAL_ADDRESS),
  LEGAL_DIRECTOR: z.string().default(LEGAL_PLACEHOLDERS.LEGAL_DIRECTOR),
  LEGAL_HOST: z.string().default(LEGAL_PLACEHOLDERS.LEGAL_HOST),
  LEGAL_CONTACT: z.string().default(LEGAL_PLACEHOLDERS.LEGAL_CONTACT),
  /** Web push (VAPID): the pair together, or neither (then generated once into the database; ADR 0038). */
  VAPID_PUBLIC_KEY: z.string().optional(),
  VAPID_PRIVATE_KEY: z.string().optional(),
  VAPID_SUBJECT: z.string().optional(),
  /**
   * Push services besides the browsers' own (a self-hosted one), as origins separated by commas: subscriptions
   * there are accepted, and reached even on a private address (lib/outbound.ts, ADR 0031).
   */
  PUSH_SERVICE_ORIGINS: originList(
    isHttpsOrigin,
    "PUSH_SERVICE_ORIGINS: https origins separated by commas, such as https://push.example.org:8443",
  ),
  /** SMS gateway (modules/messages/channels/sms-gateways.ts); unset: SMS stay in the outbox the platform admin reads. */
  SMS_PROVIDER: z.enum(["brevo", "ovh", "twilio", "smsgate", "outbox", ""]).optional().transform((v) => v || "outbox"),
  /** The gateway's API address, to point it elsewhere (tests, Twilio/OVH regions, SMSGate's device or cloud). */
  SMS_API_URL: z.string().url().optional().or(z.literal("").transform(() => undefined)),
  /** Sender shown on phones: an 11-character name or a number (Brevo, OVH, Twilio "From"). */
  SMS_SENDER: z.string().max(20).optional(),
  /** The number in « STOP au … », where replies reach the gateway (defaults to SMS_SENDER when it is a number). */
  SMS_STOP_NUMBER: z.string().max(20).optional(),
  /** Shared secret of the STOP webhook (POST /api/sms/webhook): header X-Webhook-Secret, ?secret=, or SMSGate's HMAC. */
  SMS_WEBHOOK_SECRET: z.string().min(16, "SMS_WEBHOOK_SECRET must be at least 16 characters").optional(),
  BREVO_API_KEY: z.string().optional(),
  OVH_APP_KEY: z.string().optional(),
  OVH_APP_SECRET: z.string().optional(),
  OVH_CONSUMER_KEY: z.string().optional(),
  OVH_SMS_SERVICE: z.string().optional(),
  TWILIO_ACCOUNT_SID: z.string().optional(),
  TWILIO_AUTH_TOKEN: z.string().optional(),
  SMSGATE_USERNAME: z.string().optional(),
  SMSGATE_PASSWORD: z.string().optional(),
  /** Marketing SMS send window: ISO weekdays ("1-6" = Monday–Saturday), hours, public holidays, time zone. */
  SMS_SEND_DAYS: z
    .string()
    .default("1-6")
    .refine((v) => parseDays(v) !== null, "SMS_SEND_DAYS: ISO weekdays such as 1-6 or 1,2,3,4,5"),
  SMS_SEND_HOURS: z
    .string()
    .default("08:00-20:00")
    .refine((v) => parseHours(v) !== null, "SMS_SEND_HOURS: HH:MM-HH:MM, such as 08:00-20:00"),
  SMS_SEND_ON_HOLIDAYS: boolish,
  SMS_TIMEZONE: z.string().default("Europe/Paris").refine(isValidTimeZone, "SMS_TIMEZONE: an IANA time zone"),
  /** The most the platform admin may grant a shop as its monthly SMS budget (segments); a new shop has 0 (ADR 0032). */
  SMS_MONTHLY_SEGMENTS_MAX: z.coerce.number().int().min(0).max(10_000_000).default(10_000),
  /** Test SMS a shop may send in an hour (to its owner's verified number only, ADR 0032). */
  SMS_TESTS_PER_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Spike alert in the platform console: a shop's SMS today ≥ SMS_SPIKE_MIN_SEGMENTS and > SMS_SPIKE_FACTOR × its daily mean of the 28 days before. */
  SMS_SPIKE_FACTOR: z.coerce.number().min(1).max(1000).default(5),
  SMS_SPIKE_MIN_SEGMENTS: z.coerce.number().int().min(1).max(10_000_000).default(100),
  /** Per shop (ADR 0032): messages from the composer a day and a month (the shop's local day, by send date). */
  MESSAGES_SHOP_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(3),
  MESSAGES_SHOP_PER_MONTH: z.coerce.number().int().min(1).max(100_000).default(30),
  /** Per shop: e-mail campaigns (newsletters) a day and a month. */
  NEWSLETTERS_SHOP_PER_DAY: z.coerce.number().int().min(1).max(10_000).default(1),
  NEWSLETTERS_SHOP_PER_MONTH: z.coerce.number().int().min(1).max(100_000).default(8),
  /** Per person: one shop's messages that reach them in any 24 hours, whatever the channel (in-app, push, e-mail, SMS). */
  MESSAGES_RECIPIENT_PER_DAY: z.coerce.number().int().min(1).max(1000).default(DEFAULT_RECIPIENT_DAILY_CAP),
  /**
   * Sending messages: a delivery claimed longer ago than this by a process that died is marked failed
   * ("interrupted"), never sent again; a live process renews its claims every quarter of it (ADR 0023).
   */
  MESSAGES_LEASE_SECONDS: z.coerce.number().int().min(2).max(3600).default(60),
  /** Embedded database only: nightly backups kept in DATA_DIR/backups (0: none). */
  BACKUP_KEEP: z.coerce.number().int().min(0).max(365).default(7),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
  /**
   * Webhook receivers the operator trusts as written (issue 29, ADR 0050), origins separated by commas: reached even
   * on a private address or over http (a receiver on the shop's own network; the tests' local receiver).
   */
  WEBHOOK_TRUSTED_ORIGINS: originList(
    (o) => URL.canParse(o) && /^https?:$/.test(new URL(o).protocol),
    "WEBHOOK_TRUSTED_ORIGINS: http(s) origins separated by commas, such as https://hooks.example.org:8443",
  ),
  /** Seconds before each retry of a failed webhook delivery (after the first try), comma-separated. */
  WEBHOOK_RETRY_SECONDS: z
    .string()
    .optional()
    .transform((v) => (v || "5,300,1800,7200,18000,36000,36000").split(",").map((n) => Number(n.trim())))
    .refine(
      (delays) => delays.length >= 1 && delays.length <= 20 && delays.every((d) => Number.isInteger(d) && d >= 1),
      "WEBHOOK_RETRY_SECONDS: whole seconds separated by commas, such as 5,300,1800",
    ),
  /**
   * Zettle (issue 29 item 5, ADR 0051): where its OAuth, Purchase and Pusher APIs are. Set only to reach another
   * server (the tests' local one): an address set here is trusted as written, like WEBHOOK_TRUSTED_ORIGINS.
   */
  ZETTLE_OAUTH_URL: z.string().url().optional(),
  ZETTLE_PURCHASE_URL: z.string().url().optional(),
  ZETTLE_PUSHER_URL: z.string().url().optional(),
  /** How often the job engine looks for jobs whose process died (pg-boss supervise/monitor), in seconds. */
  JOBS_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /**
   * Apple Wallet (issue 26, ADR 0045): the Pass Type ID, the team, the Pass Type ID certificate and its key (which
   * also authenticate to APNs), Apple's WWDR intermediate. All five or none (then no Apple pass is offered).
   */
  APPLE_PASS_TYPE_ID: z.string().regex(/^pass\.[A-Za-z0-9.-]+$/, "APPLE_PASS_TYPE_ID: pass.… (the Pass Type ID)").optional(),
  APPLE_TEAM_ID: z.string().regex(/^[A-Z0-9]{10}$/, "APPLE_TEAM_ID: the 10-character team identifier").optional(),
  APPLE_PASS_CERT: pemSetting("APPLE_PASS_CERT"),
  APPLE_PASS_KEY: pemSetting("APPLE_PASS_KEY"),
  APPLE_PASS_KEY_PASSPHRASE: z.string().optional(),
  APPLE_WWDR_CERT: pemSetting("APPLE_WWDR_CERT"),
  /** APNs (HTTP/2); tests point it at a local server. */
  APPLE_APNS_URL: optionalUrl,
  /** Google Wallet: the issuer id and the service account's JSON key (inline or a path). Both or neither. */
  GOOGLE_WALLET_ISSUER_ID: z.string().regex(/^\d{10,25}$/, "GOOGLE_WALLET_ISSUER_ID: the issuer id (digits)").optional(),
  GOOGLE_WALLET_SERVICE_ACCOUNT: z
    .string()
    .optional()
    .transform((v) => v || undefined)
    .refine(
      (v) => v === undefined || v.trimStart().startsWith("{") || existsSync(v),
      "GOOGLE_WALLET_SERVICE_ACCOUNT: the service account's JSON key, or the path of its file",
    ),
  /** Google's Wallet API and token endpoint; tests point them at a local server. */
  GOOGLE_WALLET_API_URL: optionalUrl,
  GOOGLE_WALLET_TOKEN_URL: optionalUrl,
  /** Bearer token of GET /metrics (Prometheus); unset: /metrics answers 404. */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN must be at least 16 characters").optional(),
})
  // Several processes share a PostgreSQL server: a secret generated into one process's DATA_DIR would differ from
  // the next one's (sessions signed by one refused by the other), so it is the operator's to set (ADR 0038).
  .refine((env) => !env.DATABASE_URL || env.SECRET, {
    path: ["SECRET"],
    message: "SECRET is required with DATABASE_URL (every process must sign sessions with the same one)",
  })
  .refine((env) => Boolean(env.VAPID_PUBLIC_KEY) === Boolean(env.VAPID_PRIVATE_KEY), {
    path: ["VAPID_PRIVATE_KEY"],
    message: "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together (or neither: the pair is generated once)",
  })
  .refine(
    (env) => {
      const apple = [env.APPLE_PASS_TYPE_ID, env.APPLE_TEAM_ID, env.APPLE_PASS_CERT, env.APPLE_PASS_KEY, env.APPLE_WWDR_CERT];
      return apple.every(Boolean) || !apple.some(Boolean);
    },
    {
      path: ["APPLE_PASS_TYPE_ID"],
      message:
        "Apple Wallet needs APPLE_PASS_TYPE_ID, APPLE_TEAM_ID, APPLE_PASS_CERT, APPLE_PASS_KEY and APPLE_WWDR_CERT together (or none)",
    },
  )
  .refine((env) => Boolean(env.GOOGLE_WALLET_ISSUER_ID) === Boolean(env.GOOGLE_WALLET_SERVICE_ACCOUNT), {
    path: ["GOOGLE_WALLET_ISSUER_ID"],
    message: "Google Wallet needs GOOGLE_WALLET_ISSUER_ID and GOOGLE_WALLET_SERVICE_ACCOUNT together (or neither)",
  });

export type Env = z.infer<typeof EnvSchema> & { SECRET: string; APP_URL: string };

export function parseEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Configuration invalide / invalid configuration:\n${lines.join("\n")}`);
  }
  const env = parsed.data;
  if (env.DATABASE_OWNER_URL && !env.DATABASE_URL) {
    throw new Error(
      "Configuration invalide / invalid configuration:\n  - DATABASE_OWNER_URL: needs DATABASE_URL (the server's own role)",
    );
  }
  return {
    ...env,
    APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}`,
    SECRET: env.SECRET ?? readOrCreateSecret(env.DATA_DIR),
  };
}

/** A secret generated once and kept in DATA_DIR, so sessions survive restarts. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString("base64url");
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
