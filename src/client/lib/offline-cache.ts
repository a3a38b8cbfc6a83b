import { dehydrate, hydrate, type Query, type QueryClient } from "@tanstack/react-query";
import { ApiError } from "./api-client.ts";

/**
 * What the app shows with no network (issue 12): the account, the shop pages visited and the counter's codes (the
 * one of the moment and those ahead) are kept in localStorage as TanStack Query last had them, and given back to the
 * query cache when the app opens offline, so those screens render as last seen instead of a blank page or « besoin
 * d'Internet ». (My cards keep their own copy: components/loyalty/my-cards-query.ts.)
 *
 * Online, the cache starts empty as before: who is signed in is asked of the server, never guessed from an old
 * copy — unless the server cannot be reached at all (a network that says it is up but carries nothing, as a
 * shop's Wi-Fi without Internet): then the kept copy comes back as if offline. Everything of the account leaves
 * the phone at sign-out (the subscription below).
 */
const STORAGE_KEY = "fidele:offline-cache";
/** The most recent shop pages kept (a shop page is a few kilobytes). */
const MAX_SHOP_PAGES = 20;

/** The counter's codes: kept the moment they arrive (issue 25 row 15), not a second later. */
const isCounterCode = (query: Query) => {
  const [first, , third] = query.queryKey as unknown[];
  return first === "counter" && (third === "ahead" || third === "reader");
};

const isKept = (query: Query) => {
  const [first, second] = query.queryKey as unknown[];
  if (query.state.status !== "success") return false;
  if (first === "me") return query.state.data !== null;
  if (first === "shops" && second === "page") return true;
  return isCounterCode(query);
};

function save(client: QueryClient) {
  const state = dehydrate(client, { shouldDehydrateQuery: isKept });
  const me = state.queries.find((q) => q.queryKey[0] === "me");
  if (!me) return forgetOfflineCache();
  const shopPages = state.queries
    .filter((q) => q.queryKey[0] === "shops")
    .sort((a, b) => b.state.dataUpdatedAt - a.state.dataUpdatedAt)
    .slice(MAX_SHOP_PAGES);
  state.queries = state.queries.filter((q) => !shopPages.includes(q));
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(state));
  } catch {
    // Storage full or disabled (private mode): nothing is kept for offline.
  }
}

function forgetOfflineCache() {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing kept.
  }
}

/**
 * At start: when the app opens without network, the kept queries come back (as old data: anything on screen is
 * refreshed when the network returns). Then every change of a kept query is saved, a little later and at most
 * once a second; a signed-out account (the account query settles on null) forgets everything.
 */
export function startOfflineCache(client: QueryClient, isOnline = navigator.onLine) {
  let restored = false;
  const restore = () => {
    if (restored) return;
    restored = true;
    try {
      const kept = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null");
      if (kept && Array.isArray(kept.queries)) hydrate(client, kept);
    } catch {
      forgetOfflineCache();
    }
  };
  if (!isOnline) restore();
  let timer: ReturnType<typeof setTimeout> | undefined;
  client.getQueryCache().subscribe((event) => {
    // The account cannot be asked for (no answer at all, not a refusal): the copy of the last visit stands in.
    if (
      event.type === "updated" &&
      (event.action.type === "failed" || event.action.type === "error") &&
      event.query.queryKey[0] === "me" &&
      event.query.state.data === undefined &&
      event.action.error instanceof ApiError &&
      event.action.error.status === 0
    ) {
      restore();
      return;
    }
    if (event.type !== "updated" || event.action.type !== "success") return;
    const { queryKey, state } = event.query;
    if (queryKey[0] === "me" && state.data === null) {
      clearTimeout(timer);
      timer = undefined;
      forgetOfflineCache();
      return;
    }
    if (!isKept(event.query)) return;
    // A counter opened seconds before the network drops keeps its codes: they are written down as they arrive.
    if (isCounterCode(event.query)) {
      clearTimeout(timer);
      timer = undefined;
      save(client);
      return;
    }
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      save(client);
    }, 1_000);
  });
}
