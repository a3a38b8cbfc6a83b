import { useQuery } from "@tanstack/react-query";
import { prepaidKeys } from "../../../components/prepaid/prepaid-api.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

/** GET …/prepaid/liability: what the shop still owes on prepaid, and its sales over 12 months (owner). */
export const useLiability = (shopId: string) =>
  useQuery({
    queryKey: [...prepaidKeys.shop(shopId), "liability"],
    queryFn: () => unwrap(api.backoffice.shops[":shopId"].prepaid.liability.$get({ param: { shopId } })),
  });

/** The export of every holding with a balance (a download, not a query). */
export const liabilityCsvUrl = (shopId: string) =>
  `/api/backoffice/shops/${encodeURIComponent(shopId)}/prepaid/liability.csv`;
