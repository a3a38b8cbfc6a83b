import path from "node:path";
import { fileURLToPath } from "node:url";
import { serve, type ServerType } from "@hono/node-server";
import { createApp } from "./app.ts";
import { createAuth } from "./auth.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { migrateDatabase } from "./db/migrate.ts";
import { DEMO_ACCOUNTS, seedDemo } from "./db/seed.ts";
import type { Env } from "./env.ts";
import type { Deps } from "./lib/context.ts";
import { createLogger, type Logger } from "./lib/logger.ts";
import { createMailer, type Mailer } from "./modules/mail/mail.service.ts";
import { startContestTimer } from "./modules/contests/draw.service.ts";
import { startRedemptionSweeper } from "./modules/rewards/redemptions.service.ts";

export const DEFAULT_CLIENT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../dist/client");

/** Everything the app needs, built from the environment. */
export async function createDeps(env: Env, options: { database?: Database; logger?: Logger; mailer?: Mailer } = {}): Promise<Deps> {
  const logger = options.logger ?? createLogger(env.LOG_LEVEL);
  const database =
    options.database ?? (await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { dataDir: env.DATA_DIR }));
  await migrateDatabase(database);
  const db = database.db;
  const mailer = options.mailer ?? createMailer({ db, smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, logger });
  const auth = createAuth({ db, mailer, secret: env.SECRET, appUrl: env.APP_URL });
  return { database, db, env, logger, mailer, auth };
}

export type RunningServer = { deps: Deps; server: ServerType; port: number; close: () => Promise<void> };

export async function startServer(env: Env, options: { clientDir?: string; database?: Database; logger?: Logger } = {}): Promise<RunningServer> {
  const deps = await createDeps(env, options);
  if (env.SEED_DEMO && (await seedDemo(deps, deps.logger))) {
    deps.logger.info(
      `demo accounts — shop owner: ${DEMO_ACCOUNTS.owner.email} / ${DEMO_ACCOUNTS.owner.password} · shopper: ${DEMO_ACCOUNTS.shopper.email} / ${DEMO_ACCOUNTS.shopper.password} · platform admin: ${DEMO_ACCOUNTS.admin.email} / ${DEMO_ACCOUNTS.admin.password}`,
    );
  }
  const app = createApp({ deps, clientDir: options.clientDir ?? DEFAULT_CLIENT_DIR });
  // Pending redemptions past their time give their points back, also those that expired while the server was down.
  const stopSweeper = startRedemptionSweeper(deps.database, deps.logger);
  // Draws at their closing time and unclaimed lots (until the job engine runs runContestJobs).
  const stopContests = startContestTimer({ ...deps, appUrl: env.APP_URL });
  const { server, port } = await new Promise<{ server: ServerType; port: number }>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, port: env.PORT, hostname: env.HOST }, (info) => resolve({ server: s, port: info.port }));
    s.once("error", reject);
  });
  return {
    deps,
    server,
    port,
    close: async () => {
      stopSweeper();
      stopContests();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await deps.database.close();
    },
  };
}
