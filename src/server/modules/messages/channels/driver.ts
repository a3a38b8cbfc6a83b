import type { Db } from "../../../db/client.ts";
import type { Deps } from "../../../lib/context.ts";
import type { Logger } from "../../../lib/logger.ts";

/**
 * The contract between the sending engine (sending.service.ts, run by the job engine:
 * jobs/messages-send.ts) and each outward channel (push, e-mail, SMS). Drivers are
 * registered in drivers.ts (one line each). The engine freezes the audience into
 * `message_deliveries` (one row per message, recipient and channel), claims rows of one
 * channel a few at a time, hands each to the channel's driver and records the outcome.
 * In-app needs no driver: delivering it is the row update itself.
 *
 * Exactly once: a row is claimed (status "claimed") before its driver is called and is
 * marked with the outcome right after. A row still "claimed" after its lease belonged to
 * a process that died mid-send: nobody knows whether it left, so it is marked failed
 * ("interrupted") and never sent again — a shopper never gets a message twice.
 */
export type OutwardChannel = "push" | "email" | "sms";

/** What the engine knows of the message being sent (a row of `messages`). */
export type MessageForChannel = {
  id: string;
  /** Null: a platform announcement. */
  shop_id: string | null;
  title: string;
  body: string;
  image_url: string | null;
  link_url: string | null;
  is_promotional: boolean;
  /** The rest of the row (newsletter content, SMS text…), as stored. */
  [column: string]: unknown;
};

/** One claimed delivery: the recipient of one channel. */
type DeliveryForChannel = { id: string; user_id: string };

export type ChannelOutcome =
  | { status: "delivered" }
  /** Will not be retried: shown to the owner as failed (with the detail). */
  | { status: "failed"; detail: string }
  /** Not sent on purpose (frequency cap, no device, unsubscribed, budget spent…). */
  | { status: "skipped"; detail: string }
  /** Back to pending, not claimable before `notBefore` (429 Retry-After, SMS quiet hours, throttling). */
  | { status: "deferred"; notBefore: Date };

/**
 * What a driver is given. `deps` is the app's (env for its configuration, the mailer…);
 * `db` is the one to use for its own reads and writes (never inside a transaction of the engine).
 */
export type ChannelContext = { db: Db; logger?: Logger; now: () => Date; deps: Deps };

export interface ChannelDriver {
  channel: OutwardChannel;
  /** How many deliveries of this channel one process has in flight at once. */
  concurrency: number;
  /**
   * Optional throttle (e.g. the operator's e-mail rate): the engine claims at most this
   * many rows of the channel per second, across processes.
   */
  ratePerSecond?: number | ((env: Deps["env"]) => number);
  /** Called once per claimed batch before `deliver` (e.g. render the newsletter once). */
  prepare?: (ctx: ChannelContext, message: MessageForChannel) => Promise<unknown>;
  /** Sends one delivery. Must not throw for a recipient-level failure: return "failed". */
  deliver: (
    ctx: ChannelContext,
    message: MessageForChannel,
    delivery: DeliveryForChannel,
    prepared: unknown,
  ) => Promise<ChannelOutcome>;
}
