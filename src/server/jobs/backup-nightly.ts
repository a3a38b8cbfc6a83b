import { writeNightlyBackup } from "../db/nightly-backup.ts";
import { defineJob } from "./define.ts";

/** The embedded database's nightly backup (db/nightly-backup.ts, docs/decisions/0039); nothing on PostgreSQL. */
export const backupNightly = defineJob({
  name: "backup.nightly",
  queue: { policy: "stately", expireInSeconds: 3600, retryLimit: 3, retryDelay: 600, retryBackoff: true },
  schedule: { cron: "30 3 * * *" },
  async run(_data, { deps }) {
    return writeNightlyBackup(deps);
  },
});
