import { pushApplePass, sweepPasses, syncGooglePass } from "../modules/wallet/updates.service.ts";
import { defineJob } from "./define.ts";

/**
 * Wallet passes kept live (modules/wallet/updates.service.ts, ADR 0045). `wallet.sweep` compares passes with their
 * sources — a shop's or a person's after a write through the API (keyed by it), every minute those whose sources
 * moved — and queues `wallet.apple` for each changed pass: its iPhones' pushes, one card at a time, at most once a
 * minute — and `wallet.google` for its Google object. They poll every second: a visit reaches the phone in a few
 * seconds.
 */
export const walletSweep = defineJob<"wallet.sweep", { shopId?: string; userId?: string; cardIds?: string[] }>({
  name: "wallet.sweep",
  queue: { policy: "stately", expireInSeconds: 300, retryLimit: 3, retryDelay: 10, retryBackoff: true },
  schedule: { cron: "* * * * *", data: {} },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 2 },
  async run(data, { deps }) {
    // A schedule created by an older release may carry no data: the scheduled sweep.
    return sweepPasses(deps, data ?? {});
  },
});

export const walletApple = defineJob<"wallet.apple", { cardId: string }>({
  name: "wallet.apple",
  queue: { policy: "stately", expireInSeconds: 120, retryLimit: 5, retryDelay: 60, retryBackoff: true },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 4 },
  async run(data, { deps }) {
    return pushApplePass(deps, data.cardId);
  },
});

/** A card's Google object PATCHed (or expired): one card at a time; Google's quota waited out. */
export const walletGoogle = defineJob<"wallet.google", { cardId: string; expire?: boolean }>({
  name: "wallet.google",
  queue: { policy: "stately", expireInSeconds: 120, retryLimit: 5, retryDelay: 60, retryBackoff: true },
  worker: { pollingIntervalSeconds: 1, localConcurrency: 4 },
  async run(data, { deps }) {
    return syncGooglePass(deps, data.cardId, { expire: data.expire === true });
  },
});
