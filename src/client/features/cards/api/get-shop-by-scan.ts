import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

/** GET /api/shops/by-scan/:scanUid: the shop a code belongs to (name and design), before crediting. */
const getShopByScan = (scanUid: string) =>
  unwrap(api.shops["by-scan"][":scanUid"].$get({ param: { scanUid } })).then((r) => r.shop);

const shopByScanQueryOptions = (scanUid: string) =>
  queryOptions({ queryKey: cardsKeys.byScan(scanUid), queryFn: () => getShopByScan(scanUid), staleTime: 5 * 60_000 });

export const useShopByScan = (scanUid: string | null) =>
  useQuery({ ...shopByScanQueryOptions(scanUid ?? ""), enabled: Boolean(scanUid) });
