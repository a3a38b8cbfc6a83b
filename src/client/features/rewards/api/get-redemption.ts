import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

/** GET /api/redemptions/:id: one of my redemptions (its code, QR text, status, balance). */
export const getRedemption = (id: string) =>
  unwrap(api.redemptions[":id"].$get({ param: { id } })).then((r) => r.redemption);

export type Redemption = Awaited<ReturnType<typeof getRedemption>>;

/** The fields the live stream (GET /api/redemptions/:id/events, event "state") sends when they change. */
export type RedemptionLiveState = Pick<
  Redemption,
  "status" | "statusLabel" | "decidedAt" | "refuseReason" | "balance" | "balanceLabel" | "expiresAt"
>;

export const redemptionQueryOptions = (id: string) =>
  queryOptions({ queryKey: rewardsKeys.redemption(id), queryFn: () => getRedemption(id), staleTime: 0 });

/** Where the live stream of a redemption is served (server-sent events). */
export const redemptionEventsUrl = (id: string) => `/api/redemptions/${encodeURIComponent(id)}/events`;
