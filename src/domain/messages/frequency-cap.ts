/**
 * The frequency cap: a shop's promotional pushes to one shopper, at most
 * `DEFAULT_PUSH_CAP` in any rolling `PUSH_CAP_WINDOW_DAYS` days. Shoppers leave
 * apps that nag (FidMe's reviews): the cap protects them whatever a shop sends.
 * In-app messages are not capped (they wait quietly in the inbox).
 */
export const DEFAULT_PUSH_CAP = 2;
export const PUSH_CAP_WINDOW_DAYS = 7;
export const PUSH_CAP_WINDOW_MS = PUSH_CAP_WINDOW_DAYS * 24 * 60 * 60 * 1000;

/** Whether one more push may go out, given the times of the pushes this shop already delivered to this shopper. */
export function mayPush(deliveredAt: readonly Date[], now: Date, cap = DEFAULT_PUSH_CAP): boolean {
  const since = now.getTime() - PUSH_CAP_WINDOW_MS;
  return deliveredAt.filter((d) => d.getTime() > since).length < cap;
}
