import type { Context } from "hono";
import { AppError } from "../../domain/errors.ts";
import type { Auth, Session, SessionUser } from "../auth.ts";
import type { Database, Db } from "../db/client.ts";
import type { Env } from "../env.ts";
import type { Jobs } from "../jobs/jobs.ts";
import type { Mailer } from "../modules/mail/mail.service.ts";
import type { VapidKeys } from "../modules/messages/push.ts";
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

export type AppEnv = {
  Variables: {
    deps: Deps;
    user: SessionUser | null;
    session: Session | null;
    clientIp: string;
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
