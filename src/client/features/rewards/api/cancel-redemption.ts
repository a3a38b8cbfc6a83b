import { api, unwrap } from "../../../lib/api-client.ts";

/** POST /api/redemptions/:id/cancel: the shopper changes their mind; the points come back at once. */
export const cancelRedemption = (id: string) =>
  unwrap(api.redemptions[":id"].cancel.$post({ param: { id } })).then((r) => r.redemption);
