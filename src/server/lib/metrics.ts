import { sql } from "drizzle-orm";
import { collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { Database } from "../db/client.ts";
import { RemotePGlite } from "../db/pglite-remote.ts";

/**
 * The figures an operator watches (ADR 0038), in one prom-client registry per app: what GET /metrics serves to
 * Prometheus and what the platform console's health section reads (`healthFigures`), so the two never disagree.
 * Request latency is this process's; the database figures (job queues, deliveries, mail outbox) are read from the
 * database when scraped, so any process gives the instance's.
 */
export type Metrics = {
  registry: Registry;
  /** One answered request: its method, route pattern (never the raw URL), status and duration. */
  observeRequest: (method: string, route: string, status: number, seconds: number) => void;
};

type DatabaseFigures = {
  jobsReady: boolean;
  jobs: { queue: string; state: string; n: number }[];
  deliveries: { channel: string; status: string; n: number }[];
  outbox: { status: string; n: number }[];
};

/** A second: one scrape (or one console view) reads the database once however many series it fills. */
const FIGURES_TTL_MS = 1000;

async function readDatabaseFigures(database: Database): Promise<DatabaseFigures> {
  const { db } = database;
  const [has] = (await db.execute<{ jobs: boolean }>(sql`select to_regclass('pgboss.job') is not null as jobs`)).rows;
  const jobs = has?.jobs
    ? // Every queue and state, zeros included (a series that vanishes at 0 cannot be alerted on).
      (
        await db.execute<{ queue: string; state: string; n: number }>(sql`
          select q.name as queue, s.state, (select count(*)::int from pgboss.job j where j.name = q.name and j.state::text = s.state) as n
          from pgboss.queue q cross join (values ('created'), ('retry'), ('active'), ('failed')) as s(state)`)
      ).rows
    : [];
  const deliveries = (
    await db.execute<{ channel: string; status: string; n: number }>(sql`
      select c.channel, s.status, coalesce(d.n, 0)::int as n
      from (values ('inapp'), ('push'), ('email'), ('sms')) as c(channel)
      cross join (values ('pending'), ('claimed'), ('delivered'), ('failed'), ('skipped')) as s(status)
      left join (select channel, status, count(*) as n from message_deliveries group by 1, 2) d
        on d.channel = c.channel and d.status = s.status`)
  ).rows;
  const outbox = (
    await db.execute<{ status: string; n: number }>(sql`select status, count(*)::int as n from mail_outbox group by 1`)
  ).rows;
  return { jobsReady: Boolean(has?.jobs), jobs, deliveries, outbox };
}

/** Of the job engine, only whether it runs: the engine's own type lives beside Deps, which holds these metrics. */
export function createMetrics({
  database,
  jobs,
}: {
  database: Database;
  jobs: { readonly started: boolean };
}): Metrics {
  const registry = new Registry();
  // Process figures, the event-loop delay among them (nodejs_eventloop_lag_*_seconds, from monitorEventLoopDelay).
  collectDefaultMetrics({ register: registry });

  let figures: { at: number; value: Promise<DatabaseFigures | null> } | null = null;
  const databaseFigures = () => {
    if (!figures || performance.now() - figures.at > FIGURES_TTL_MS) {
      figures = { at: performance.now(), value: readDatabaseFigures(database).catch(() => null) };
    }
    return figures.value;
  };

  const requests = new Histogram({
    name: "fidele_http_request_duration_seconds",
    help: "Time to answer a request, by method, route pattern and status class (2xx, 4xx…).",
    labelNames: ["method", "route", "status_class"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  new Gauge({
    name: "fidele_db_pool_connections",
    help: "Database connections of this process by state (PostgreSQL pool: total, idle, waiting clients; PGlite: its one connection, waiting = statements queued for it).",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      if (database.pool) {
        this.set({ state: "total" }, database.pool.totalCount);
        this.set({ state: "idle" }, database.pool.idleCount);
        this.set({ state: "waiting" }, database.pool.waitingCount);
      } else {
        const inFlight = database.pglite instanceof RemotePGlite ? database.pglite.inFlight : 0;
        this.set({ state: "total" }, 1);
        this.set({ state: "idle" }, inFlight === 0 ? 1 : 0);
        this.set({ state: "waiting" }, Math.max(0, inFlight - 1));
      }
    },
  });

  new Gauge({
    name: "fidele_database_up",
    help: "1 when the database answered the last scrape's queries.",
    registers: [registry],
    async collect() {
      this.set((await databaseFigures()) ? 1 : 0);
    },
  });

  new Gauge({
    name: "fidele_jobs_engine_started",
    help: "1 when this process's job engine is running.",
    registers: [registry],
    collect() {
      this.set(jobs.started ? 1 : 0);
    },
  });

  new Gauge({
    name: "fidele_jobs",
    help: "Jobs in the queues now, by queue and state (created and retry: waiting; active: running; failed: failed for good, kept 7 days).",
    labelNames: ["queue", "state"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await databaseFigures())?.jobs ?? []) this.set({ queue: row.queue, state: row.state }, row.n);
    },
  });

  new Gauge({
    name: "fidele_message_deliveries",
    help: "Message deliveries by channel (inapp, push, email, sms) and outcome (pending, claimed, delivered, failed, skipped).",
    labelNames: ["channel", "status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await databaseFigures())?.deliveries ?? [])
        this.set({ channel: row.channel, status: row.status }, row.n);
    },
  });

  new Gauge({
    name: "fidele_mail_outbox",
    help: "E-mails in the outbox by status (kept: no SMTP server; sent; failed).",
    labelNames: ["status"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const row of (await databaseFigures())?.outbox ?? []) this.set({ status: row.status }, row.n);
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.observe({ method, route, status_class: `${Math.floor(status / 100)}xx` }, seconds);
    },
  };
}

/** The platform console's health section: read from the registry that /metrics serves. */
export async function healthFigures(metrics: Metrics) {
  const all = await metrics.registry.getMetricsAsJSON();
  const values = (name: string) => all.find((m) => m.name === name)?.values ?? [];
  const sum = (name: string, match: (labels: Partial<Record<string, string | number>>) => boolean) =>
    values(name)
      .filter((v) => match(v.labels))
      .reduce((n, v) => n + v.value, 0);
  const pool = (state: string) => sum("fidele_db_pool_connections", (l) => l.state === state);
  const deliveries = (channel: string, status: string) =>
    sum("fidele_message_deliveries", (l) => l.channel === channel && l.status === status);
  return {
    databaseUp: sum("fidele_database_up", () => true) === 1,
    pool: { total: pool("total"), idle: pool("idle"), waiting: pool("waiting") },
    /** The event loop's 99th percentile delay since the last reading, in milliseconds. */
    eventLoopDelayMs: Math.round(sum("nodejs_eventloop_lag_p99_seconds", () => true) * 1000 * 10) / 10,
    jobsStarted: sum("fidele_jobs_engine_started", () => true) === 1,
    jobsQueued: sum("fidele_jobs", (l) => l.state === "created" || l.state === "retry"),
    jobsFailed: sum("fidele_jobs", (l) => l.state === "failed"),
    sends: (["push", "email", "sms"] as const).map((channel) => ({
      channel,
      delivered: deliveries(channel, "delivered"),
      failed: deliveries(channel, "failed"),
    })),
    outbox: sum("fidele_mail_outbox", () => true),
    outboxFailed: sum("fidele_mail_outbox", (l) => l.status === "failed"),
  };
}
