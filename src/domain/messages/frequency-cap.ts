/**
 * The frequency caps (one owner of the rule: the sending engine applies them through
 * server/modules/messages/frequency-cap.ts before any channel delivers, ADR 0032).
 *
 * 1. Across channels: one shop's messages that reach one person, at most
 *    `MESSAGES_RECIPIENT_PER_DAY` (default `DEFAULT_RECIPIENT_DAILY_CAP`) in any rolling
 *    24 hours, whatever the channel (in-app, push, e-mail, SMS). A message counts once
 *    however many channels carry it; beyond the cap it is skipped on every channel.
 * 2. Push: a shop's promotional pushes to one shopper, at most `DEFAULT_PUSH_CAP` in any
 *    rolling `PUSH_CAP_WINDOW_DAYS` days. Shoppers leave apps that nag (FidMe's reviews).
 * Platform announcements (no shop) are not capped.
 */
export const DEFAULT_RECIPIENT_DAILY_CAP = 2;
export const RECIPIENT_CAP_WINDOW_HOURS = 24;
export const DEFAULT_PUSH_CAP = 2;
export const PUSH_CAP_WINDOW_DAYS = 7;

/** What a capped delivery says (message_deliveries.detail). */
export const FREQUENCY_CAP_DETAIL = "frequency cap";
