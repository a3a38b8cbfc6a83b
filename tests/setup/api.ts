import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomInt } from "node:crypto";
import { mkdir, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { inject } from "vitest";
import { createApp } from "../../src/server/app.ts";
import type { Database } from "../../src/server/db/client.ts";
import type { EngineJob } from "../../src/server/jobs/define.ts";
import { createShop, createUser, type CreateUserInput } from "../../src/server/db/factories.ts";
import { parseEnv } from "../../src/server/env.ts";
import type { Deps } from "../../src/server/lib/context.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { createMailer, type Mailer, type MarketingKind } from "../../src/server/modules/mail/mail.service.ts";
import type { MailKind } from "../../src/server/modules/mail/templates.ts";
import { createDeps } from "../../src/server/server.ts";
import { freePort } from "./smtp.ts";
import { openTestDatabase } from "./test-db.ts";
import { SOON, START } from "./timing.ts";

export const ROOT = path.resolve(import.meta.dirname, "../..");
export const TEST_APP_URL = "http://fidele.test";

export type SentMail = {
  to: string;
  kind: MailKind | MarketingKind;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
};

/** A random documentation-range address (RFC 5737), so each client is its own "machine". */
/**
 * The sending quotas and the recipient's frequency cap raised (ADR 0032), for files that test
 * other sending mechanics with many messages to the same shop and people; the defaults are
 * tested in tests/api/send-quotas.test.ts.
 */
export const UNCAPPED_SENDING = {
  MESSAGES_SHOP_PER_DAY: "10000",
  MESSAGES_SHOP_PER_MONTH: "100000",
  NEWSLETTERS_SHOP_PER_DAY: "10000",
  NEWSLETTERS_SHOP_PER_MONTH: "100000",
  MESSAGES_RECIPIENT_PER_DAY: "1000",
} as const;

export const randomIp = () => `198.51.${randomInt(0, 256)}.${randomInt(1, 255)}`;

export type RequestInit2 = Omit<RequestInit, "body"> & {
  /** A value is sent as JSON; a string is sent as is (with a JSON content type). */
  json?: unknown;
  body?: string;
  /** The socket address the request comes from (default: this client's own). */
  ip?: string;
};

/** Log lines to the console, error lines to console.error: an error logged by the app fails the test. */
export const consoleDestination = {
  write(line: string) {
    const text = line.trimEnd();
    const level = (JSON.parse(text) as { level?: string }).level;
    if (level === "error" || level === "fatal") console.error(text);
    else if (level === "warn") console.warn(text);
    else console.log(text);
  },
};

export type TestApp = Awaited<ReturnType<typeof createTestApp>>;

/**
 * The real app (createApp + the deps the server builds) on this file's test
 * database, called in-process. Mail is captured (and also kept in the outbox, as
 * without SMTP). `request` carries an Origin header and a cookie jar; `client()`
 * gives another browser with its own jar and address. The job engine is started only with
 * `jobs: true` (its start costs ~1-3 s a file, STACK.md); otherwise `deps.jobs.send` throws.
 */
export async function createTestApp(
  options: {
    env?: Record<string, string>;
    jobs?: boolean;
    database?: Database;
    /** The database given is migrated and may not be migrated by its role (openAppRoleDatabase). */
    migrated?: boolean;
    /** Queues of the tests only (test-probe.ts), registered beside the app's jobs. */
    extraJobs?: readonly EngineJob[];
  } = {},
) {
  const env = parseEnv({
    NODE_ENV: "test",
    APP_URL: TEST_APP_URL,
    SECRET: randomBytes(32).toString("hex"),
    DATA_DIR: path.join(tmpdir(), "fidele-api-unused"),
    SEED_DEMO: "0",
    LOG_LEVEL: "warn",
    ...options.env,
  });
  const database = options.database ?? (await openTestDatabase());
  const logger = createLogger("warn", consoleDestination);
  const mails: SentMail[] = [];
  // With SMTP_URL (a local smtp-server), mail also really leaves over SMTP.
  const outbox = createMailer({ db: database.db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger });
  const mailer: Mailer = {
    async send(message) {
      mails.push({
        to: message.to,
        kind: message.kind,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: message.headers,
      });
      return outbox.send(message);
    },
  };
  const deps: Deps = await createDeps(env, {
    database,
    logger,
    mailer,
    migrated: options.migrated,
    extraJobs: options.extraJobs,
  });
  if (options.jobs) await deps.jobs.start(deps);
  const app = createApp({ deps });

  function client(options: { ip?: string } = {}) {
    const jar = new Map<string, string>();
    const ownIp = options.ip ?? randomIp();
    async function request(pathname: string, init: RequestInit2 = {}): Promise<Response> {
      const { json, ip, body, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (!headers.has("origin")) headers.set("origin", new URL(env.APP_URL).origin);
      if (jar.size > 0 && !headers.has("cookie"))
        headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
      let payload: string | undefined = body;
      if (json !== undefined) payload = JSON.stringify(json);
      if (payload !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json");
      const method = rest.method ?? (payload !== undefined ? "POST" : "GET");
      const response = await app.request(
        new URL(pathname, env.APP_URL).toString(),
        { ...rest, method, headers, body: payload },
        // What @hono/node-server gives getConnInfo: the socket's address.
        { incoming: { socket: { remoteAddress: ip ?? ownIp, remotePort: 40000, remoteFamily: "IPv4" } } },
      );
      for (const cookie of response.headers.getSetCookie()) {
        const [pair = "", ...attributes] = cookie.split(";");
        const eq = pair.indexOf("=");
        const name = pair.slice(0, eq).trim();
        const value = pair.slice(eq + 1).trim();
        const maxAge = attributes.find((a) => a.trim().toLowerCase().startsWith("max-age="));
        if (value === "" || (maxAge && Number(maxAge.split("=")[1]) <= 0)) jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    }
    return {
      request,
      jar,
      ip: ownIp,
      /** Signs in with a password; throws unless it works. */
      async signIn(email: string, password: string) {
        const res = await request("/api/auth/sign-in/email", { json: { email, password } });
        if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
        return res;
      },
    };
  }

  const main = client();
  return {
    app,
    deps,
    env,
    mails,
    request: main.request,
    jar: main.jar,
    signIn: main.signIn,
    client,
    createUser: (input: CreateUserInput = {}) => createUser(deps, input),
    createShop: (ownerId: string, input: { name?: string; slug?: string } = {}) =>
      createShop(deps, { ownerId, ...input }),
    /** The last mail sent to `to` (of `kind` when given). */
    lastMail(to: string, kind?: MailKind): SentMail {
      const found = mails.filter((m) => m.to === to.toLowerCase() && (!kind || m.kind === kind)).at(-1);
      if (!found)
        throw new Error(`no ${kind ?? ""} mail to ${to}; sent: ${mails.map((m) => `${m.kind}→${m.to}`).join(", ")}`);
      return found;
    },
    close: async () => {
      await deps.jobs.stop();
      await deps.database.close();
    },
  };
}

/**
 * A server process, for tests across processes, run as `npm start` runs it: the bundle in dist/server, built first
 * when its sources changed (ADR 0037; a build is shared by every run until the sources change). Loading the sources
 * through tsx's loader instead cost 4–5 s of CPU a process against 1 s for the bundle, and the suites start dozens.
 * `entry`: another entry file, run from its sources (node + tsx's loader).
 */
export type ServerProcess = {
  child: ChildProcess;
  url: string;
  port: number;
  stdout: () => string;
  stderr: () => string;
  /** Resolves with the exit code (or 1 when killed by a signal). */
  exited: Promise<number>;
  stop: () => Promise<number>;
};

export async function spawnServer(
  env: Record<string, string>,
  /** `entry`: another entry file, from its sources (probe-server.ts: the server with the tests' probe queue). */
  options: { entry?: string } = {},
): Promise<ServerProcess> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const clean = { ...process.env };
  for (const key of [
    "DATABASE_URL",
    "TEST_DATABASE_URL",
    "APP_URL",
    "SECRET",
    "SMTP_URL",
    "TRUST_PROXY",
    "PORT",
    "HOST",
    "DATA_DIR",
  ]) {
    delete clean[key];
  }
  let args = ["--import", "tsx", options.entry ?? ""];
  if (!options.entry) {
    const { ensureServerBuild, SERVER_ENTRY } = await import("../../scripts/build.mjs");
    await ensureServerBuild();
    args = ["--enable-source-maps", SERVER_ENTRY];
  }
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...clean,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      SEED_DEMO: "0",
      LOG_LEVEL: "warn",
      ...env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  let err = "";
  child.stdout?.on("data", (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    err += d.toString();
  });
  // Never leave a server behind when the test process ends early.
  const killOnExit = () => child.kill("SIGKILL");
  process.once("exit", killOnExit);
  const exited = new Promise<number>((resolve) =>
    child.on("exit", (code) => {
      process.removeListener("exit", killOnExit);
      resolve(code ?? 1);
    }),
  );
  return {
    child,
    port,
    url: `http://127.0.0.1:${port}`,
    stdout: () => out,
    stderr: () => err,
    exited,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      // A graceful stop finishes what is in flight first: a busy machine may need a while.
      const timer = setTimeout(() => child.kill("SIGKILL"), SOON);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * A DATA_DIR whose embedded database is already migrated: the run's PGlite template
 * unpacked (a fresh directory costs an initdb, ~6 s; reopening one ~1 s).
 */
export async function migratedDataDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "fidele-datadir-"));
  await mkdir(path.join(dir, "pglite"));
  execFileSync("tar", ["-xf", inject("pgliteTemplate"), "-C", path.join(dir, "pglite")], { stdio: "ignore" });
  return dir;
}

/** What server processes printed, for the message of a wait that failed. */
export const serverLogs = (servers: ServerProcess[]) =>
  servers.map((s, i) => `--- server ${i}\n${s.stdout()}\n${s.stderr()}`).join("\n");

/** Polls GET /api/health until 200; fails early if the process exits. */
export async function waitHealthy(server: ServerProcess, timeoutMs = START): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitedWith: number | null = null;
  void server.exited.then((code) => {
    exitedWith = code;
  });
  while (Date.now() < deadline) {
    if (exitedWith !== null) throw new Error(`server exited with ${exitedWith}: ${server.stderr()}`);
    try {
      const res = await fetch(`${server.url}/api/health`);
      if (res.status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server not healthy within ${timeoutMs} ms: ${server.stderr()}`);
}
