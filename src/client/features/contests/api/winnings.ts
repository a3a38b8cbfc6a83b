import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { contestsKeys } from "./keys.ts";

export type WinningsFilter = { q: string; status: "all" | "to_hand_over" | "handed_over" | "expired" | "redrawn" };

/** GET …/contest-winnings: every lot won in the shop, searchable. */
const listWinnings = (shopId: string, filter: WinningsFilter) =>
  unwrap(api.backoffice.shops[":shopId"]["contest-winnings"].$get({ param: { shopId }, query: filter }));

const winningsQueryOptions = (shopId: string, filter: WinningsFilter) =>
  queryOptions({
    queryKey: contestsKeys.winnings(shopId, filter),
    queryFn: () => listWinnings(shopId, filter),
    placeholderData: keepPreviousData,
  });

export const useWinnings = (shopId: string, filter: WinningsFilter) => useQuery(winningsQueryOptions(shopId, filter));

/** The CSV export's address (downloaded by the browser with the session cookie). */
export const winningsCsvUrl = (shopId: string, filter: WinningsFilter) =>
  `/api/backoffice/shops/${encodeURIComponent(shopId)}/contest-winnings/export?${new URLSearchParams(filter).toString()}`;
