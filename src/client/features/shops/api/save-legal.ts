import type { z } from "zod";
import type { shopLegalSchema } from "../../../../domain/schemas/shops.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useSaveSettings } from "../../../lib/use-mutation-fn.ts";
import { shopsKeys } from "./keys.ts";

const saveLegal = (shopId: string, input: z.output<typeof shopLegalSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].legal.$put({ param: { shopId }, json: input })).then((r) => r.legal);

export const useSaveLegal = (shopId: string) =>
  useSaveSettings(shopsKeys.legal(shopId), (input: z.output<typeof shopLegalSchema>) => saveLegal(shopId, input));
