import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import {
  CODE_STEP_SECONDS,
  parseScanCode,
  scanUrl,
  stepEndsAt,
  timeStep,
} from "../../../../domain/loyalty/scan-code.ts";
import { shortCodeOf } from "../../../../domain/loyalty/short-code.ts";
import { api, unwrap } from "../../../lib/api-client.ts";
import { getReaderCode } from "./counter.ts";
import { cardsKeys } from "./keys.ts";

const shop = api.backoffice.shops[":shopId"];

/** GET …/reader/ahead: the tokens of the next 4 hours (never the shop's key), kept on the phone for offline use. */
const getCodesAhead = (shopId: string) => unwrap(shop.reader.ahead.$get({ param: { shopId } }));
type Ahead = Awaited<ReturnType<typeof getCodesAhead>>;

/** The code of this step, with the difference between the server's clock and this screen's. */
async function fetchCode(source: CodeSource) {
  const code = await source.getCode();
  return { ...code, skewMs: Date.parse(code.serverTime) - Date.now() };
}

type CounterCode = {
  url: string;
  /** The short code to type on /scanner when a camera fails. */
  shortCode: string | null;
  /** When it stops being the current one, on this screen's clock. */
  endsAt: number;
  shop: Ahead["shop"];
  /** Shown from the codes fetched ahead (no network). */
  isFromAhead: boolean;
};

/**
 * Where a counter screen gets its codes: /reader from the back office of a shop, the counter tablet from its own
 * routes (ADR 0054); the same answers either way.
 */
type CodeSource = {
  codeKey: readonly unknown[];
  aheadKey: readonly unknown[];
  getCode: () => Promise<Awaited<ReturnType<typeof getReaderCode>>>;
  getAhead: () => Promise<Ahead>;
};

/** /reader's codes: those of a shop the signed-in member works for. */
export function useCounterCode(shopId: string | null) {
  return useRotatingCode(
    shopId
      ? {
          codeKey: cardsKeys.counterReader(shopId),
          aheadKey: cardsKeys.counterAhead(shopId),
          getCode: () => getReaderCode(shopId),
          getAhead: () => getCodesAhead(shopId),
        }
      : null,
  );
}

/**
 * A counter's code of the moment: the live one from the server (renewed as it expires), or, when the network is
 * gone, the one of this step among the codes fetched ahead (offline-cache.ts keeps /reader's across a restart), so
 * the counter keeps working for hours without network.
 */
export function useRotatingCode(source: CodeSource | null) {
  const live = useQuery({
    queryKey: source?.codeKey ?? ["counter", null, "reader"],
    queryFn: () => fetchCode(source!),
    enabled: Boolean(source),
    staleTime: Number.POSITIVE_INFINITY,
    // Fetched again as the code expires (a quarter second after, on the server's clock), and every 5 s while it fails.
    refetchInterval: (query) =>
      query.state.data && !query.state.error
        ? Math.max(1_000, Date.parse(query.state.data.expiresAt) - query.state.data.skewMs - Date.now() + 250)
        : 5_000,
    refetchIntervalInBackground: true,
    retry: 1,
  });
  const ahead = useQuery({
    queryKey: source?.aheadKey ?? ["counter", null, "ahead"],
    queryFn: async () => ({ ...(await source!.getAhead()), fetchedAt: Date.now() }),
    enabled: Boolean(source),
    // Renewed every half hour: four hours ahead stay in hand.
    staleTime: 30 * 60_000,
    refetchInterval: 30 * 60_000,
    refetchIntervalInBackground: true,
    retry: 1,
  });
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 1_000);
    return () => window.clearInterval(timer);
  }, []);

  let code: CounterCode | null = null;
  const liveData = live.data;
  // A code stays valid one step after it stops being current: past that, showing it would only mislead.
  if (liveData && now <= Date.parse(liveData.expiresAt) - liveData.skewMs + CODE_STEP_SECONDS * 1000) {
    const token = parseScanCode(liveData.url)?.token ?? "";
    code = {
      url: liveData.url,
      shortCode: shortCodeOf(token),
      endsAt: Date.parse(liveData.expiresAt) - liveData.skewMs,
      shop: liveData.shop,
      isFromAhead: false,
    };
  } else if (ahead.data) {
    const skew = Date.parse(ahead.data.serverTime) - ahead.data.fetchedAt;
    const step = timeStep(now + skew);
    const token = ahead.data.tokens[step - ahead.data.firstStep];
    if (token) {
      code = {
        url: scanUrl(ahead.data.appUrl, { scanUid: ahead.data.scanUid, token, poster: null }),
        shortCode: shortCodeOf(token),
        endsAt: stepEndsAt(step) - skew,
        shop: ahead.data.shop,
        isFromAhead: true,
      };
    }
  }
  return {
    code,
    isError: live.isError && !code,
    error: live.error,
    isPending: live.isPending && !code,
    // No network (the query waits for it) and no code kept on this device: the screen says so, never « Préparation ».
    isOffline: !code && live.fetchStatus === "paused",
  };
}
