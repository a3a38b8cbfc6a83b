import { api, unwrap } from "../../../lib/api-client.ts";

/** POST /api/rewards/gifts: claims a VIP level's gift or the birthday gift; it becomes a redemption to validate. */
export const claimGift = (input: {
  cardId: string;
  source: "vip" | "birthday";
  tierId: string | null;
  idempotencyKey: string;
}) => unwrap(api.rewards.gifts.$post({ json: input })).then((r) => r.redemption);
