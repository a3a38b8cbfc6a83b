import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/**
 * The deadline on this phone's clock: the server says how long is left, so a
 * phone whose clock is minutes off still counts down right.
 */
export function withLocalDeadline<T extends { expiresAt: string; expiresInMs: number }>(r: T): T {
  return { ...r, expiresAt: new Date(Date.now() + r.expiresInMs).toISOString() };
}

/** GET /api/redemptions/:id: one of my redemptions (its code, QR text, status, balance). */
const getRedemption = (id: string) =>
  unwrap(api.redemptions[":id"].$get({ param: { id } })).then((r) => withLocalDeadline(r.redemption));

export type Redemption = Awaited<ReturnType<typeof getRedemption>>;

/** The fields the live stream (GET /api/redemptions/:id/events, event "state") sends when they change. */
export type RedemptionLiveState = Pick<
  Redemption,
  "status" | "statusLabel" | "decidedAt" | "refuseReason" | "balance" | "balanceLabel" | "expiresAt" | "expiresInMs"
>;

export const redemptionQueryOptions = (id: string) =>
  queryOptions({ queryKey: rewardsKeys.redemption(id), queryFn: () => getRedemption(id), staleTime: 0 });

/** Where the live stream of a redemption is served (server-sent events). */
export const redemptionEventsUrl = (id: string) => `/api/redemptions/${encodeURIComponent(id)}/events`;
