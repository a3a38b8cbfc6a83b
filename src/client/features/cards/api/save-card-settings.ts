import type { z } from "zod";
import type { cardSettingsSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useSaveSettings } from "../../../lib/use-mutation-fn.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";

const saveCardSettings = (shopId: string, input: z.output<typeof cardSettingsSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].card.$put({ param: { shopId }, json: input })).then((r) => r.card);

/** Saves the card; the answer is the new settings, and the shop's overview (design, mode) follows. */
export const useSaveCardSettings = (shopId: string) =>
  useSaveSettings(
    backofficeKeys.card(shopId),
    (input: z.output<typeof cardSettingsSchema>) => saveCardSettings(shopId, input),
    [backofficeKeys.overview(shopId)],
  );
