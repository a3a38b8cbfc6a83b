import { purgeInactiveAccounts } from "../modules/accounts/inactive-purge.service.ts";
import { defineJob } from "./define.ts";

/** Accounts unused for 3 years: warned, then erased 30 days later (accounts/inactive-purge.service.ts). Daily. */
export const accountsPurge = defineJob<"accounts.purge", { now?: string }>({
  name: "accounts.purge",
  queue: { policy: "stately", expireInSeconds: 900, retryLimit: 3, retryDelay: 60, retryBackoff: true },
  schedule: { cron: "17 4 * * *" },
  async run(data, { deps }) {
    return purgeInactiveAccounts(deps, data.now ? new Date(data.now) : new Date());
  },
});
