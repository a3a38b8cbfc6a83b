import { runContestJobs } from "../modules/contests/draw.service.ts";
import { defineJob } from "./define.ts";

/**
 * Draws at their closing time and lots nobody claimed in time (re-drawn to the next in the published
 * sequence). Every minute and once at start. Exactly once however many processes run: each draw is taken
 * by a conditional UPDATE (closed → drawn) inside its own transaction, and the queue is stately.
 */
export const contestsDraw = defineJob({
  name: "contests.draw",
  queue: { policy: "stately", expireInSeconds: 300, retryLimit: 3, retryDelay: 10, retryBackoff: true },
  schedule: { cron: "* * * * *" },
  runAtStart: true,
  async run(_data, { deps }) {
    return runContestJobs({
      db: deps.db,
      mailer: deps.mailer,
      logger: deps.logger,
      appUrl: deps.env.APP_URL,
      jobs: deps.jobs,
    });
  },
});
