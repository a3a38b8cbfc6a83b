import type { z } from "zod";
import type { shopPageSchema } from "../../../../domain/schemas/shops.ts";
import { myShopsQueryOptions } from "../../../components/shop/current-shop.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useSaveSettings } from "../../../lib/use-mutation-fn.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { backofficeKeys } from "../../../components/back-office/shop-keys.ts";
import { shopsKeys } from "./keys.ts";

const savePageContent = (shopId: string, input: z.output<typeof shopPageSchema>) =>
  unwrap(api.backoffice.shops[":shopId"].page.$put({ param: { shopId }, json: input })).then((r) => r.page);

/** Saves the public page; the name and logo show elsewhere too (overview, card, my shops, me). */
export const useSavePageContent = (shopId: string) =>
  useSaveSettings(
    shopsKeys.pageContent(shopId),
    (input: z.output<typeof shopPageSchema>) => savePageContent(shopId, input),
    [
      backofficeKeys.overview(shopId),
      backofficeKeys.card(shopId),
      myShopsQueryOptions().queryKey,
      meQueryOptions().queryKey,
    ],
  );
