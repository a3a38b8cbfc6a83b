import { queryOptions } from "@tanstack/react-query";
import type { AdjustmentInput, CreditVisitInput } from "../../../../domain/schemas/cards.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

/** The counter's calls (staff of the shop): /api/backoffice/shops/:shopId/… */
const shop = api.backoffice.shops[":shopId"];

/** GET …/reader: this 30 s step's code (URL to encode), when it expires, the server's clock. */
export const getReaderCode = (shopId: string) => unwrap(shop.reader.$get({ param: { shopId } }));

/** GET …/today: today's scans at this shop, newest first. */
const getTodayScans = (shopId: string) => unwrap(shop.today.$get({ param: { shopId } }));
export type TodayScan = Awaited<ReturnType<typeof getTodayScans>>["scans"][number];

export const todayScansQueryOptions = (shopId: string) =>
  queryOptions({
    queryKey: cardsKeys.counterToday(shopId),
    queryFn: () => getTodayScans(shopId),
    refetchInterval: 30_000,
  });

/** GET …/lookup?email=: the card of a customer of this shop, by e-mail. */
export const lookupCustomer = (shopId: string, email: string) =>
  unwrap(shop.lookup.$get({ param: { shopId }, query: { email } })).then((r) => r.customer);
export type CounterCustomer = Awaited<ReturnType<typeof lookupCustomer>>;

type HcCredit = Parameters<(typeof shop)["credit"]["$post"]>[0]["json"];
type HcAdjust = Parameters<(typeof shop)["adjust"]["$post"]>[0]["json"];

/**
 * POST …/credit: a visit typed by staff (no camera), under the same rules as a scan. Bodies are the schemas'
 * input types (hc's type shows the validators' output).
 */
export const creditVisit = (shopId: string, json: CreditVisitInput) =>
  unwrap(shop.credit.$post({ param: { shopId }, json: json as HcCredit }));

/** POST …/adjust: a correction with a reason, kept in the ledger. */
export const adjustCard = (shopId: string, json: AdjustmentInput) =>
  unwrap(shop.adjust.$post({ param: { shopId }, json: json as HcAdjust }));
