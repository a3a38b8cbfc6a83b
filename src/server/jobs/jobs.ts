import type { PgBoss, Queue } from "pg-boss";
import type { Database } from "../db/client.ts";
import type { Env } from "../env.ts";
import type { Deps, Jobs } from "../lib/context.ts";
import type { Logger } from "../lib/logger.ts";
import { accountsPurge } from "./accounts-purge.ts";
import { automationsMeasure } from "./automations-measure.ts";
import { automationsRun } from "./automations-run.ts";
import { backupNightly } from "./backup-nightly.ts";
import { contestsDraw } from "./contests-draw.ts";
import { dailyStatsFold } from "./daily-stats-fold.ts";
import type { EngineJob, JobDefinition } from "./define.ts";
import { messagesSend, messagesSweep } from "./messages-send.ts";
import type { JobName, JobPayloads } from "./payloads.ts";
import { redemptionsExpire } from "./redemptions-expire.ts";
import { referralsRelease } from "./referrals-release.ts";
import { retentionFold } from "./retention-fold.ts";
import { reviewsRequest } from "./reviews-request.ts";
import { scanClaimsCleanup } from "./scan-claims-cleanup.ts";
import { tillPurchase } from "./till-purchase.ts";
import { tillZettlePoll } from "./till-zettle-poll.ts";
import { walletApple, walletGoogle, walletSweep } from "./wallet-updates.ts";
import { webhooksDeliver, webhooksSweep } from "./webhooks-deliver.ts";

/**
 * The job engine (docs/decisions/0015): pg-boss keeps every job in the database — PGlite through
 * `fromPglite` on the embedded default, its own small pool on a PostgreSQL server — so jobs survive
 * restarts, several processes share the queues (SKIP LOCKED) and a cron tick sends one job however
 * many processes run. Adding work: a file exporting `defineJob({...})` beside this one, its name and
 * data in payloads.ts, and its entry here (keyed by its name: a name of payloads.ts without its job,
 * or a job reading other data than payloads.ts says, is a type error).
 */
const JOBS: { [N in JobName]: JobDefinition<N, JobPayloads[N]> } = {
  "redemptions.expire": redemptionsExpire,
  "scan-claims.cleanup": scanClaimsCleanup,
  "contests.draw": contestsDraw,
  "accounts.purge": accountsPurge,
  "messages.send": messagesSend,
  "messages.sweep": messagesSweep,
  "daily-stats.fold": dailyStatsFold,
  "backup.nightly": backupNightly,
  "wallet.sweep": walletSweep,
  "wallet.apple": walletApple,
  "wallet.google": walletGoogle,
  "automations.run": automationsRun,
  "automations.measure": automationsMeasure,
  "retention.fold": retentionFold,
  "referrals.release": referralsRelease,
  "reviews.request": reviewsRequest,
  "webhooks.deliver": webhooksDeliver,
  "webhooks.sweep": webhooksSweep,
  "till.purchase": tillPurchase,
  "till.zettle-poll": tillZettlePoll,
};

/** Where a job goes after its last retry failed: kept 30 days for a person to look at and redrive. */
export const DEAD_LETTER_QUEUE = "dead-letter";

/** Every queue's defaults: retried 5 times with exponential back-off (10 s, 20 s, … at most 10 min). */
const QUEUE_DEFAULTS = {
  retryLimit: 5,
  retryDelay: 10,
  retryBackoff: true,
  retryDelayMax: 600,
  expireInSeconds: 15 * 60,
  deleteAfterSeconds: 7 * 24 * 3600,
} satisfies Omit<Queue, "name">;

type JobsOptions = {
  database: Database;
  env: Env;
  logger: Logger;
  /** Queues beside the app's own, registered by the tests that need them (tests/setup/test-probe.ts). */
  extraJobs?: readonly EngineJob[];
};

export function createJobs({ database, env, logger, extraJobs = [] }: JobsOptions): Jobs {
  const definitions: EngineJob[] = [...Object.values(JOBS), ...extraJobs];
  let boss: PgBoss | null = null;
  let starting: Promise<void> | null = null;
  let stopping: Promise<void> | null = null;
  /** Handlers see it (JobContext.signal): aborted as soon as stop() is called, before the graceful wait. */
  const stopSignal = new AbortController();

  // pg-boss is loaded when the engine starts, not when the server does (its import alone took 0.4-1 s here).
  async function newBoss(): Promise<PgBoss> {
    const { PgBoss, fromPglite } = await import("pg-boss");
    const common = {
      superviseIntervalSeconds: env.JOBS_SUPERVISE_SECONDS,
      monitorIntervalSeconds: env.JOBS_SUPERVISE_SECONDS,
      instanceName: `fidele-${process.pid}`,
    };
    if (database.kind === "pglite") {
      // PGlite is one connection shared with the app: pg-boss queues behind the app's statements. Never
      // call the engine from inside an open db.transaction on PGlite (it would wait for itself).
      return new PgBoss({ ...common, backend: "pglite", db: fromPglite(database.pglite!) });
    }
    if (!database.url) throw new Error("job engine: the PostgreSQL database has no URL");
    return new PgBoss({ ...common, connectionString: database.url, max: 4 });
  }

  async function ensureQueue(b: PgBoss, name: string, options: Omit<Queue, "name">) {
    const existing = await b.getQueue(name);
    if (!existing) {
      await b.createQueue(name, options);
      return;
    }
    // Options may change between releases; policy and dead letter are fixed once a queue exists.
    const { policy: _p, partition: _pa, deadLetter: _d, retryDelayMax: _r, heartbeatSeconds: _h, ...mutable } = options;
    await b.updateQueue(name, mutable);
  }

  async function start(deps: Deps) {
    const startedAt = Date.now();
    const b = await newBoss();
    b.on("error", (error) => logger.error("jobs: engine error", { error: error.message }));
    await b.start();
    await ensureQueue(b, DEAD_LETTER_QUEUE, { retentionSeconds: 30 * 24 * 3600, deleteAfterSeconds: 30 * 24 * 3600 });
    for (const definition of definitions) {
      await ensureQueue(b, definition.name, { ...QUEUE_DEFAULTS, ...definition.queue, deadLetter: DEAD_LETTER_QUEUE });
      await b.work(
        definition.name,
        {
          includeMetadata: true,
          batchSize: 1,
          pollingIntervalSeconds: definition.worker?.pollingIntervalSeconds ?? 2,
          localConcurrency: definition.worker?.localConcurrency ?? 1,
        },
        async ([job]) => {
          if (!job) return;
          const context = {
            deps,
            logger,
            job: { id: job.id, name: job.name, retryCount: job.retryCount },
            signal: stopSignal.signal,
          };
          try {
            // A schedule without data sends null: a handler always gets an object.
            return await definition.run((job.data ?? {}) as never, context);
          } catch (error) {
            const last = job.retryCount >= job.retryLimit;
            logger[last ? "error" : "warn"](
              last
                ? `jobs: ${job.name} failed for good, moved to ${DEAD_LETTER_QUEUE}`
                : `jobs: ${job.name} failed, will retry`,
              {
                id: job.id,
                attempt: job.retryCount + 1,
                error: errorChain(error),
              },
            );
            throw error;
          }
        },
      );
      if (definition.schedule) {
        await b.schedule(definition.name, definition.schedule.cron, definition.schedule.data ?? null, {
          tz: definition.schedule.tz ?? "Europe/Paris",
        });
      } else {
        // A schedule that a release removed must not keep sending jobs.
        await b.unschedule(definition.name).catch(() => {});
      }
      if (definition.runAtStart) await b.send(definition.name, {}, definition.send);
    }
    boss = b;
    logger.info(`jobs: engine started in ${Date.now() - startedAt} ms (${definitions.map((d) => d.name).join(", ")})`);
  }

  return {
    get started() {
      return boss !== null;
    },
    get boss() {
      return boss;
    },
    async send(name, data, options) {
      if (!boss) {
        if (!starting || stopping)
          throw new Error(`job engine not ${stopping ? "running" : "started"}: cannot send ${name}`);
        await starting;
        if (!boss) throw new Error(`job engine not running: cannot send ${name}`);
      }
      const definition = definitions.find((d) => d.name === name);
      if (!definition) throw new Error(`unknown job ${name}`);
      return boss!.send(name, data as object, { ...definition.send, ...options });
    },
    start(deps) {
      starting ??= start(deps);
      return starting;
    },
    stop(timeoutMs = 10_000) {
      stopSignal.abort();
      stopping ??= (async () => {
        // A start still under way finishes first, so nothing is left holding the database.
        await starting?.catch(() => {});
        const b = boss;
        boss = null;
        // close: true ends pg-boss's own pool; the PGlite instance is the app's and is closed by it.
        await b?.stop({ graceful: true, timeout: timeoutMs, close: true });
      })();
      return stopping;
    },
  };
}

/** The error's message and its causes' (drizzle wraps the driver's error: its reason is in `cause`). */
function errorChain(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e !== undefined && e !== null && depth < 4; depth++) {
    parts.push(e instanceof Error ? e.message : String(e));
    e = e instanceof Error ? e.cause : undefined;
  }
  return parts.join(" ← ");
}
