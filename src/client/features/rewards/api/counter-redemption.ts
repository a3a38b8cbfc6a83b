import { api, unwrap } from "../../../lib/api-client.ts";
import { withLocalDeadline } from "./get-redemption.ts";

/** GET …/redemptions/lookup?code=: the redemption a code (typed or scanned) names in this shop (staff). */
export const lookupRedemption = (shopId: string, code: string) =>
  unwrap(api.backoffice.shops[":shopId"].redemptions.lookup.$get({ param: { shopId }, query: { code } })).then((r) =>
    withLocalDeadline(r.redemption),
  );

export type CounterRedemption = Awaited<ReturnType<typeof lookupRedemption>>;

/** POST …/redemptions/:id/validate: the reward is handed over (staff). */
export const validateRedemption = (shopId: string, id: string) =>
  unwrap(api.backoffice.shops[":shopId"].redemptions[":id"].validate.$post({ param: { shopId, id } })).then(
    (r) => r.redemption,
  );

/** POST …/redemptions/:id/refuse: refused with a reason the shopper reads; their points come back (staff). */
export const refuseRedemption = (shopId: string, id: string, reason: string) =>
  unwrap(
    api.backoffice.shops[":shopId"].redemptions[":id"].refuse.$post({ param: { shopId, id }, json: { reason } }),
  ).then((r) => r.redemption);
