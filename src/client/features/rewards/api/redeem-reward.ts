import { api, unwrap } from "../../../lib/api-client.ts";

/**
 * POST /api/rewards/:slug/redeem ("Utiliser"): reserves the reward. The same key sent again (a retry of the same
 * tap) returns the same redemption; a refusal is an ApiError with the French reason.
 */
export const redeemReward = (slug: string, idempotencyKey: string) =>
  unwrap(api.rewards[":slug"].redeem.$post({ param: { slug }, json: { idempotencyKey } })).then((r) => r.redemption);
