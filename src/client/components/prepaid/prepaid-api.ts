import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../lib/api-client.ts";
import { backofficeKeys } from "../back-office/shop-keys.ts";

/**
 * The prepaid calls the shared pieces make (ADR 0049): what the shopper holds (their cards page), the counter's
 * lookup, use and sale (the validation desk and /manager). The owner's pages have theirs in features/prepaid/api.
 */

export const prepaidKeys = {
  mine: () => ["prepaid", "mine"] as const,
  forSale: (shopId: string) => backofficeKeys.part(shopId, "prepaid", "for-sale"),
  shop: (shopId: string) => backofficeKeys.part(shopId, "prepaid"),
};

/** GET /api/prepaid/mine: my bundles and gift cards. The page re-reads it while open: a use at the till shows. */
const myPrepaidQueryOptions = () =>
  queryOptions({
    queryKey: prepaidKeys.mine(),
    queryFn: () => unwrap(api.prepaid.mine.$get({ query: {} })).then((r) => r.holdings),
    refetchInterval: 5_000,
  });
export const useMyPrepaid = () => useQuery(myPrepaidQueryOptions());
export type MyHolding = NonNullable<ReturnType<typeof useMyPrepaid>["data"]>[number];

/** GET …/prepaid/lookup?code=: a holding of this shop by the code its holder shows (staff). */
export const lookupPrepaid = (shopId: string, code: string) =>
  unwrap(api.backoffice.shops[":shopId"].prepaid.lookup.$get({ param: { shopId }, query: { code } })).then(
    (r) => r.holding,
  );
export type CounterHolding = Awaited<ReturnType<typeof lookupPrepaid>>;

/** POST …/prepaid/uses: a unit, or an amount in cents, used at the till (staff); its entry names it for a cancel. */
export const spendPrepaid = (shopId: string, json: { code: string; amount: number; idempotencyKey: string }) =>
  unwrap(api.backoffice.shops[":shopId"].prepaid.uses.$post({ param: { shopId }, json }));

/**
 * POST …/prepaid/entries/:entryId/cancel: a use typed wrong given back, or a sale not yet used taken back (by its
 * author within minutes, or a manager).
 */
export const cancelPrepaidEntry = (shopId: string, entryId: number) =>
  unwrap(
    api.backoffice.shops[":shopId"].prepaid.entries[":entryId"].cancel.$post({
      param: { shopId, entryId: String(entryId) },
    }),
  ).then((r) => r.holding);

/** GET …/prepaid/for-sale: the products staff may sell. */
export const useProductsForSale = (shopId: string) =>
  useQuery({
    queryKey: prepaidKeys.forSale(shopId),
    queryFn: () =>
      unwrap(api.backoffice.shops[":shopId"].prepaid["for-sale"].$get({ param: { shopId } })).then((r) => r.products),
  });

/** POST …/prepaid/sales: a sale recorded at the till, to a customer's code or as a gift to an address (staff). */
export const sellPrepaid = (
  shopId: string,
  json: {
    productId: string;
    paymentMethod: "cash" | "card" | "check" | "other";
    /** "" for none (the schema reads an empty field as none). */
    customerCode: string;
    giftEmail: string;
    idempotencyKey: string;
  },
) => unwrap(api.backoffice.shops[":shopId"].prepaid.sales.$post({ param: { shopId }, json }));
