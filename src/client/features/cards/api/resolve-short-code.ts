import type { ShortCodeRequestInput } from "../../../../domain/schemas/cards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

type HcBody = Parameters<(typeof api.cards)["short-codes"]["$post"]>[0]["json"];

/** POST /api/cards/short-codes: the counter code a typed short code stands for ({ scanUid, token }). */
export const resolveShortCode = (code: string) =>
  unwrap(api.cards["short-codes"].$post({ json: { code } satisfies ShortCodeRequestInput as HcBody }));
