import type { Context } from "hono";
import type { PgBoss, SendOptions } from "pg-boss";
import { AppError } from "../../domain/errors.ts";
import type { Auth, Session, SessionUser } from "../auth.ts";
import type { Database, Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import type { JobName, JobPayloads } from "../jobs/payloads.ts";
import type { Mailer } from "../modules/mail/mail.service.ts";
import type { VapidKeys } from "../modules/messages/channels/push.ts";
import type { Logger } from "./logger.ts";
import type { Metrics } from "./metrics.ts";

export type Deps = {
  database: Database;
  db: Db;
  env: Env;
  logger: Logger;
  mailer: Mailer;
  auth: Auth;
  jobs: Jobs;
  /** The instance's web-push keys, the same in every process (ADR 0038). */
  vapid: VapidKeys;
  /** What /metrics serves and the platform console's health reads (lib/metrics.ts). */
  metrics: Metrics;
};

/**
 * The job engine as the rest of the server sees it (jobs/jobs.ts builds it). Declared here, beside Deps, because
 * each refers to the other (`start` takes the deps); jobs.ts and the job files import this file, never the reverse.
 */
export type Jobs = {
  /** Queues a job; resolves with its id (null when a singleton/stately queue already holds one). */
  send<N extends JobName>(name: N, data: JobPayloads[N], options?: SendOptions): Promise<string | null>;
  /** Starts the engine and its workers and schedules. */
  start(deps: Deps): Promise<void>;
  /** Stops taking jobs, waits for running ones (up to `timeoutMs`), then lets go of the database. */
  stop(timeoutMs?: number): Promise<void>;
  readonly started: boolean;
  /** The pg-boss instance, once started (tests look at job states through it). */
  readonly boss: PgBoss | null;
};

export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser | null;
    session: Session | null;
    clientIp: string;
    /** This request's id (lib/request-log.ts): on every log line and in X-Request-Id. */
    requestId: string;
  };
};

/** The signed-in user, else 401. Every signed-in route starts with this. */
export function currentUser(c: Context<AppEnv>): SessionUser {
  const user = c.get("user");
  if (!user) throw new AppError("UNAUTHENTICATED");
  return user;
}

/** The platform admin, else 403 (401 when signed out). */
export function currentAdmin(c: Context<AppEnv>): SessionUser {
  const user = currentUser(c);
  if (user.role !== "admin") throw new AppError("FORBIDDEN");
  return user;
}
