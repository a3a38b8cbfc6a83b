import { defineJob } from "./define.ts";

/**
 * Tests only (JOBS_TEST_PROBE=1; no route sends to it): logs when it starts and ends, holds for
 * `holdMs`, fails when asked, so a test can see which process ran a job, how many times, and kill one mid-run.
 * A short expiry makes a job whose process died run again within seconds.
 */
export const testProbe = defineJob({
  name: "test.probe",
  queue: { expireInSeconds: 4, retryLimit: 3, retryDelay: 0 },
  worker: { pollingIntervalSeconds: 0.5, localConcurrency: 2 },
  async run(data: { label: string; holdMs?: number; fail?: boolean }, { logger, job }) {
    const line = { id: job.id, label: data.label, pid: process.pid, attempt: job.retryCount };
    logger.info("job test.probe started", line);
    if (data.holdMs) await new Promise((r) => setTimeout(r, data.holdMs));
    if (data.fail) throw new Error(`probe ${data.label} fails on purpose`);
    logger.info("job test.probe done", line);
    return { pid: process.pid };
  },
});
