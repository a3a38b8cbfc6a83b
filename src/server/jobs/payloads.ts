/**
 * Every job's name and the data it carries: what `deps.jobs.send` accepts. A file of its own that imports nothing,
 * so lib/context.ts (Deps) can name it: the job files import the modules, which import the context, and a context
 * that imported the job files would close that loop. jobs.ts registers one job per name here, with this data (a
 * name without its job, or a job reading other data, does not compile).
 */
export type JobPayloads = {
  "redemptions.expire": Record<string, never>;
  "scan-claims.cleanup": Record<string, never>;
  "contests.draw": Record<string, never>;
  /** `now` (ISO): the clock, which tests set; the daily schedule sends none. */
  "accounts.purge": { now?: string };
  "messages.send": { messageId: string; lane?: number };
  "messages.sweep": Record<string, never>;
  "daily-stats.fold": Record<string, never>;
  "backup.nightly": Record<string, never>;
  /** Passes to compare with their sources: a shop's, a person's, given cards, or (none) those whose sources moved. */
  "wallet.sweep": { shopId?: string; userId?: string; cardIds?: string[] };
  "wallet.apple": { cardId: string };
  /** `expire`: the card's account was erased. */
  "wallet.google": { cardId: string; expire?: boolean };
  /** `now` (ISO): the clock, which tests set; the schedule sends none. */
  "automations.run": { now?: string };
  /** `now` (ISO): the clock, which tests set; the schedule sends none. */
  "automations.measure": { now?: string };
  "retention.fold": Record<string, never>;
  "referrals.release": Record<string, never>;
  /** `now` (ISO): the clock, which tests set; the schedule sends none. */
  "reviews.request": { now?: string };
  /** One try of a webhook delivery (issue 29): `attempt` counts from 1. */
  "webhooks.deliver": { deliveryId: string; attempt: number };
  "webhooks.sweep": Record<string, never>;
  /** A purchase a till pushed (issue 29 item 5): read from the vendor, credited or taken back once. */
  "till.purchase": { shopId: string; purchaseUuid: string };
  "till.zettle-poll": Record<string, never>;
};

export type JobName = keyof JobPayloads;
