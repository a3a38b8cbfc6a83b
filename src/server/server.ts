import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve, type ServerType } from "@hono/node-server";
import { createApp } from "./app.ts";
import { createAuth } from "./auth.ts";
import type { Database } from "./db/client.ts";
import { migrateDatabase, openServerDatabase } from "./db/migrate.ts";
import { DEMO_ACCOUNTS, seedDemo } from "./db/seed.ts";
import { type Env, unsetLegalDetails } from "./env.ts";
import type { Deps } from "./lib/context.ts";
import type { EngineJob } from "./jobs/define.ts";
import { createJobs } from "./jobs/jobs.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { createMetrics } from "./lib/metrics.ts";
import { createMailer, type Mailer } from "./modules/mail/mail.service.ts";
import { loadVapidKeys } from "./modules/messages/channels/push.ts";

export const DEFAULT_CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/client");

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Everything the app needs, built from the environment. The job engine is built, not started (startServer starts it). */
export async function createDeps(
  env: Env,
  options: {
    database?: Database;
    /** Settles once `database` is open and migrated, when it is given before (index.ts: PGlite opening). */
    ready?: Promise<unknown>;
    logger?: Logger;
    mailer?: Mailer;
    migrated?: boolean;
    /** Queues of the tests only, beside the app's jobs (tests/setup/test-probe.ts). */
    extraJobs?: readonly EngineJob[];
  } = {},
): Promise<Deps> {
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  const database = options.database ?? (await openServerDatabase(env, (message) => logger.warn(message)));
  if (options.database && !options.migrated) await migrateDatabase(database);
  const db = database.db;
  const mailer = options.mailer ?? createMailer({ db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger });
  const auth = createAuth({ db, mailer, secret: env.SECRET, appUrl: env.APP_URL, logger });
  const jobs = createJobs({ database, env, logger, extraJobs: options.extraJobs });
  await options.ready;
  const vapid = await loadVapidKeys(db, env);
  const metrics = createMetrics({ database, jobs });
  return { database, db, env, logger, mailer, auth, jobs, vapid, metrics };
}

/** How long after listening the job engine starts (see startServer). */
const JOBS_START_DELAY_MS = 2000;

export type RunningServer = { deps: Deps; server: ServerType; port: number; close: () => Promise<void> };

export async function startServer(
  env: Env,
  options: {
    clientDir?: string;
    database?: Database;
    /** The database given is already migrated (index.ts migrates while the server's modules load). */
    migrated?: boolean;
    /** Settles once the database given is open and migrated (index.ts gives it while PGlite opens). */
    ready?: Promise<unknown>;
    logger?: Logger;
    /** Resolves when the web app's build is there (`npm start` builds it while the database gets ready). */
    webBuild?: Promise<void>;
    extraJobs?: readonly EngineJob[];
  } = {},
): Promise<RunningServer> {
  const deps = await createDeps(env, options);
  const seedStarted = performance.now();
  if (env.SEED_DEMO && (await seedDemo(deps, deps.logger))) {
    deps.logger.debug(`start: demo seeded in ${seconds(performance.now() - seedStarted)}`);
    deps.logger.info(
      `demo accounts — shop owner: ${DEMO_ACCOUNTS.owner.email} / ${DEMO_ACCOUNTS.owner.password} · shopper: ${DEMO_ACCOUNTS.shopper.email} / ${DEMO_ACCOUNTS.shopper.password} · platform admin: ${DEMO_ACCOUNTS.admin.email} / ${DEMO_ACCOUNTS.admin.password}`,
    );
  }
  const unsetLegal = unsetLegalDetails(env);
  if (unsetLegal.length > 0) {
    deps.logger.warn(
      `legal notice incomplete: /mentions-legales shows placeholders until ${unsetLegal.join(", ")} ${unsetLegal.length > 1 ? "are" : "is"} set (French law requires them on a public site)`,
    );
  }
  await options.webBuild;
  const app = createApp({ deps, clientDir: options.clientDir ?? DEFAULT_CLIENT_DIR });
  const { server, port } = await new Promise<{ server: ServerType; port: number }>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) =>
      resolve({ server: s, port: info.port }),
    );
    s.once("error", reject);
  });
  // The job engine starts a couple of seconds after the server answers: its start (1-3 s of schema checks; on
  // PGlite, off the main thread since ADR 0026 but in the one queue the app's statements use) must not hold up
  // the first pages. Its start-up jobs include the expiry sweep catching up on the time the server was down (ADR 0015).
  let jobsStarted: Promise<void> = Promise.resolve();
  const startJobs = setTimeout(() => {
    jobsStarted = deps.jobs.start(deps).catch((error: unknown) => {
      deps.logger.error("jobs: the engine did not start", {
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }, JOBS_START_DELAY_MS);
  return {
    deps,
    server,
    port,
    close: async () => {
      clearTimeout(startJobs);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await jobsStarted;
      await deps.jobs.stop();
      await deps.database.close();
    },
  };
}
