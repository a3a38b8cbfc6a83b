import type { z } from "zod";
import type { receiptRequestSchema } from "../../../../domain/schemas/cards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";

type HcReceiptBody = Parameters<typeof api.cards.receipt.$post>[0]["json"];

/** POST /api/cards/receipt: a receipt code's points (issue 29); a refusal is an answer with its French message. */
export const postReceipt = (json: z.input<typeof receiptRequestSchema>) =>
  unwrap(api.cards.receipt.$post({ json: json as HcReceiptBody }));
