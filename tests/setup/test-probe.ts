import type { SendOptions } from "pg-boss";
import { defineJob } from "../../src/server/jobs/define.ts";
import type { Jobs } from "../../src/server/lib/context.ts";

/**
 * A queue of the tests only, registered by the tests that send to it (createTestApp({ extraJobs }),
 * probe-server.ts for a server process): logs when it starts and ends, holds for `holdMs`, fails when
 * asked, so a test can see which process ran a job, how many times, and kill one mid-run. A short
 * expiry makes a job whose process died run again within seconds.
 */
export const PROBE_QUEUE = "test.probe";
export type ProbeData = { label: string; holdMs?: number; fail?: boolean };

export const testProbe = defineJob({
  name: PROBE_QUEUE,
  queue: { expireInSeconds: 4, retryLimit: 3, retryDelay: 0 },
  worker: { pollingIntervalSeconds: 0.5, localConcurrency: 2 },
  async run(data: ProbeData, { logger, job }) {
    const line = { id: job.id, label: data.label, pid: process.pid, attempt: job.retryCount };
    logger.info("job test.probe started", line);
    if (data.holdMs) await new Promise((r) => setTimeout(r, data.holdMs));
    if (data.fail) throw new Error(`probe ${data.label} fails on purpose`);
    logger.info("job test.probe done", line);
    return { pid: process.pid };
  },
});

/**
 * Sends to the probe through the engine's own `send` (its defaults, its "not started" check). The probe is no job
 * of the app's (jobs/payloads.ts), so its name is outside the names `send` is typed with.
 */
export function sendProbe(jobs: Jobs, data: ProbeData, options?: SendOptions): Promise<string | null> {
  const send = jobs.send as (name: string, data: object, options?: SendOptions) => Promise<string | null>;
  return send.call(jobs, PROBE_QUEUE, data, options);
}
