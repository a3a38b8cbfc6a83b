import { runDeliveryJob, sweepDeliveries } from "../modules/webhooks/webhooks.service.ts";
import { defineJob } from "./define.ts";

/**
 * Signed webhooks (modules/till/webhooks.service.ts, ADR 0050): `webhooks.deliver` is one try of one delivery; a
 * failed try queues the next after its wait (WEBHOOK_RETRY_SECONDS), so the back-off is the delivery's own and the
 * log has every try. `webhooks.sweep` sends the first job of deliveries made while no engine ran.
 */
export const webhooksDeliver = defineJob<"webhooks.deliver", { deliveryId: string; attempt: number }>({
  name: "webhooks.deliver",
  // A job that fails (the database, not the receiver: that is a recorded try) is retried by the engine.
  queue: { expireInSeconds: 120, retryLimit: 3, retryDelay: 5, retryBackoff: true },
  worker: { pollingIntervalSeconds: 0.5, localConcurrency: 4 },
  async run(data, { deps }) {
    return runDeliveryJob(deps, data);
  },
});

export const webhooksSweep = defineJob<"webhooks.sweep", Record<string, never>>({
  name: "webhooks.sweep",
  queue: { policy: "singleton", expireInSeconds: 120 },
  schedule: { cron: "* * * * *", data: {} },
  async run(_data, { deps }) {
    return sweepDeliveries(deps);
  },
});
