import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import type { ScanOutcome } from "../../../../domain/loyalty/scan-rules.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

export type ScansFilter = { outcome: ScanOutcome | ""; from: string; to: string; flagged: boolean; limit: number };

/** The query string of the list and of its CSV export (empty filters are left out). */
export const scansQuery = (f: ScansFilter) => ({
  ...(f.outcome ? { outcome: f.outcome } : {}),
  ...(f.from ? { from: f.from } : {}),
  ...(f.to ? { to: f.to } : {}),
  flagged: f.flagged ? "1" : "0",
  limit: String(f.limit),
  offset: "0",
});

const listScans = (shopId: string, f: ScansFilter) =>
  unwrap(api.backoffice.shops[":shopId"].scans.$get({ param: { shopId }, query: scansQuery(f) }));

const scansQueryOptions = (shopId: string, f: ScansFilter) =>
  queryOptions({
    queryKey: cardsKeys.scans(shopId, f),
    queryFn: () => listScans(shopId, f),
    placeholderData: keepPreviousData,
  });

export const useScans = (shopId: string, f: ScansFilter) => useQuery(scansQueryOptions(shopId, f));

export type Scan = Awaited<ReturnType<typeof listScans>>["scans"][number];
