import type { ChannelDriver, OutwardChannel } from "./driver.ts";
import { emailDriver } from "./email-driver.ts";
import { pushDriver } from "./push-driver.ts";
import { smsDriver } from "./sms-driver.ts";

/**
 * The outward channels the sending engine delivers through (channels.ts), one line each.
 * A channel is used for a message when its flag is set (with_push, with_email, with_sms)
 * and its driver is listed here: only then are its deliveries frozen with the audience.
 */
export const CHANNEL_DRIVERS: readonly ChannelDriver[] = [pushDriver, emailDriver, smsDriver];

/** The message column that turns each outward channel on. */
export const CHANNEL_FLAGS: Record<OutwardChannel, "with_push" | "with_email" | "with_sms"> = {
  push: "with_push",
  email: "with_email",
  sms: "with_sms",
};
