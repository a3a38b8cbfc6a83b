import type { z } from "zod";
import type { shopHoursSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useSaveSettings } from "../../../lib/use-mutation-fn.ts";
import { shopsKeys } from "./keys.ts";

const saveHours = (shopId: string, input: z.output<typeof shopHoursSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].hours.$put({ param: { shopId }, json: input })).then((r) => r.hours);

export const useSaveHours = (shopId: string) =>
  useSaveSettings(shopsKeys.hours(shopId), (input: z.output<typeof shopHoursSchema>) => saveHours(shopId, input));
