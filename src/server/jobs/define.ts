import type { Queue, SendOptions } from "pg-boss";
import type { Deps } from "../lib/context.ts";
import type { Logger } from "../lib/logger.ts";

/** What a handler gets besides its data. */
type JobContext = {
  deps: Deps;
  logger: Logger;
  job: { id: string; name: string; retryCount: number };
  /** Aborted when the engine starts stopping (SIGTERM): a long handler stops taking new work and returns. */
  signal: AbortSignal;
};

/**
 * One queue: its name, how its jobs are retried, its handler and, optionally, its schedule.
 * A new kind of background work is one file exporting `defineJob({...})`, listed in jobs.ts.
 */
export type JobDefinition<Name extends string = string, Data extends object = object> = {
  name: Name;
  /** pg-boss queue options; jobs.ts supplies the defaults (retries with back-off, the dead-letter queue). */
  queue?: Omit<Queue, "name" | "deadLetter">;
  /** A cron expression (minute grain, pg-boss checks schedules every 30 s) and its time zone. */
  schedule?: { cron: string; tz?: string; data?: Data };
  /** Also send one job when the engine starts (e.g. a sweep catching up after downtime). */
  runAtStart?: boolean;
  /** Worker options: how often it polls (seconds, ≥ 0.5) and how many jobs it runs at once in a process. */
  worker?: { pollingIntervalSeconds?: number; localConcurrency?: number };
  /** Default send options for this queue (e.g. a singleton key). */
  send?: SendOptions;
  run: (data: Data, context: JobContext) => Promise<unknown>;
};

/**
 * A job as the engine holds it, whatever its data: the engine hands each job the data it was sent, untouched
 * (`run` taking `never` accepts every job's handler; a schedule's data is any object).
 */
export type EngineJob = Omit<JobDefinition<string, never>, "schedule"> & {
  schedule?: { cron: string; tz?: string; data?: object };
};

/** Typed identity: keeps the literal name and the data type for `jobs.send`. */
export const defineJob = <const Name extends string, Data extends object = Record<string, never>>(
  definition: JobDefinition<Name, Data>,
) => definition;
