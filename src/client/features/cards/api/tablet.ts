import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { useRotatingCode } from "./counter-code.ts";
import { cardsKeys } from "./keys.ts";

/**
 * The counter tablet (ADR 0054): its pairing, its screen (the shop, the rotating code, the last visits) and amount
 * codes. Its credential is an httpOnly cookie the browser sends to /api/tablet only.
 */
const tablet = api.tablet;

const getTabletScreen = () => unwrap(tablet.$get());
export type TabletScreen = Awaited<ReturnType<typeof getTabletScreen>>;
export const tabletScreenQueryOptions = () =>
  queryOptions({ queryKey: cardsKeys.tablet("screen"), queryFn: getTabletScreen, staleTime: 60_000 });

export type TabletVisit = Awaited<ReturnType<typeof getVisits>>["visits"][number];
const getVisits = () => unwrap(tablet.visits.$get());

/** The last credited visits, asked again every few seconds (a visit shows within 5 s). */
export const useTabletVisits = (enabled: boolean) =>
  useQuery({
    queryKey: cardsKeys.tablet("visits"),
    queryFn: getVisits,
    enabled,
    refetchInterval: 5_000,
    refetchIntervalInBackground: true,
  });

/** The rotating code, from the tablet's routes (the same answers as /reader's). */
export const useTabletCode = (enabled: boolean) =>
  useRotatingCode(
    enabled
      ? {
          codeKey: cardsKeys.tablet("code"),
          aheadKey: cardsKeys.tablet("ahead"),
          getCode: () => unwrap(tablet.code.$get()),
          getAhead: () => unwrap(tablet.code.ahead.$get()),
        }
      : null,
  );

/** Opens the pairing link's code: the answer sets the tablet's cookie. */
export function usePairTablet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (code: string) => unwrap(tablet.pair.$post({ json: { code } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: cardsKeys.tablet() }),
  });
}

export type AmountCode = Awaited<ReturnType<typeof postAmountCode>>;
const postAmountCode = (json: { pin: string; amountCents: number }) => unwrap(tablet["amount-codes"].$post({ json }));

export const useCreateAmountCode = () => useMutation({ mutationFn: postAmountCode });

/** Whether the amount code on screen was claimed: asked every 2 s until it is. */
export const useAmountCodeStatus = (receiptId: string | null) =>
  useQuery({
    queryKey: cardsKeys.tablet("amount-code", receiptId ?? ""),
    queryFn: () => unwrap(tablet["amount-codes"][":receiptId"].$get({ param: { receiptId: receiptId ?? "" } })),
    enabled: Boolean(receiptId),
    refetchInterval: (query) => (query.state.data?.claimed ? false : 2_000),
    refetchIntervalInBackground: true,
  });
