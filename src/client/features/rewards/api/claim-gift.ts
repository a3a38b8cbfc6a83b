import { api, unwrap } from "../../../lib/api-client.ts";

/**
 * POST /api/rewards/gifts: claims a VIP level's gift, the birthday gift, an automation's reward offer or a
 * parrainage's reward; it becomes a redemption to validate.
 */
export const claimGift = (input: {
  cardId: string;
  source: "vip" | "birthday" | "offer" | "referral";
  tierId: string | null;
  offerId: string | null;
  referralId: string | null;
  idempotencyKey: string;
}) => unwrap(api.rewards.gifts.$post({ json: input })).then((r) => r.redemption);
