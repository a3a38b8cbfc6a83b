import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { rewardsKeys } from "./keys.ts";

type Status = "pending" | "validated" | "refused" | "cancelled" | "expired" | "all";

/** GET …/redemptions?status=: the shop's redemptions, newest first (owner). */
const listShopRedemptions = (shopId: string, status: Status, limit = 20) =>
  unwrap(
    api.backoffice.shops[":shopId"].redemptions.$get({
      param: { shopId },
      query: { status, limit: String(limit), offset: "0" },
    }),
  ).then((r) => r.redemptions);

const shopRedemptionsQueryOptions = (shopId: string, status: Status, limit = 20) =>
  queryOptions({
    queryKey: rewardsKeys.redemptions(shopId, status, limit),
    queryFn: () => listShopRedemptions(shopId, status, limit),
    refetchInterval: 30_000,
  });

export const useShopRedemptions = (shopId: string, status: Status, limit = 20) =>
  useQuery(shopRedemptionsQueryOptions(shopId, status, limit));

export type ShopRedemption = Awaited<ReturnType<typeof listShopRedemptions>>[number];
