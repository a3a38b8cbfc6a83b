import { sql } from "drizzle-orm";
import { Hono } from "hono";
import type { AppEnv } from "../../lib/context.ts";
import { migrationsApplied } from "./readiness.ts";

/**
 * GET /api/health: the database answers (as before; what `npm start` and the tests wait for).
 * GET /api/health/live: the process is up and serving — nothing else is asked (a restart would not cure the rest).
 * GET /api/health/ready: worth sending traffic to — the database answers, it has every migration this build
 * knows, and the job engine runs; 503 with the failing check otherwise (ADR 0038).
 */
const health = new Hono<AppEnv>()
  .get("/", async (c) => {
    const { database } = c.get("deps");
    await database.db.execute(sql`select 1`);
    return c.json({ status: "ok" as const, database: database.kind });
  })
  .get("/live", (c) => c.json({ status: "ok" as const }))
  .get("/ready", async (c) => {
    const { database, jobs } = c.get("deps");
    const migrations = await migrationsApplied(database.db).catch(() => null);
    const checks = { database: migrations !== null, migrations: migrations === true, jobs: jobs.started };
    const ready = checks.database && checks.migrations && checks.jobs;
    return c.json({ status: ready ? ("ready" as const) : ("unavailable" as const), checks }, ready ? 200 : 503);
  });

/** The health module's routes (it has no part in a shop's back office): /api/health. */
export const healthRoutes = new Hono<AppEnv>().route("/health", health);
