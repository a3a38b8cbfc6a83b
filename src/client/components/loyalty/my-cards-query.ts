import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../lib/api-client.ts";
import { useMe } from "../../lib/me.ts";
import { queryClient } from "../../lib/query-client.ts";

/** GET /api/cards: the signed-in shopper's cards, last visited first. */
const getMyCards = () => unwrap(api.cards.$get()).then((r) => r.cards);
export type MyCard = Awaited<ReturnType<typeof getMyCards>>[number];

/*
 * Offline: the last answer of GET /api/cards is kept in localStorage (with its owner's id and time) and handed to
 * TanStack Query as initialData, so cards once seen stay readable without network. Chosen over the service
 * worker's runtime cache because it needs no change to the shared worker, is tied to one account (a copy of
 * someone else is never shown), and is dropped at sign-out (the cache subscription below).
 */
const STORAGE_KEY = "fidele:cards";
type Saved = { userId: string; savedAt: number; cards: MyCard[] };

function readSaved(userId: string | undefined): Saved | undefined {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? "null") as Saved | null;
    if (!saved || !Array.isArray(saved.cards)) return undefined;
    // The owner is unknown only when the app opened offline: the copy on this phone is then the best we have.
    if (userId !== undefined && saved.userId !== userId) return undefined;
    return saved;
  } catch {
    return undefined;
  }
}

function save(userId: string | undefined, cards: MyCard[]) {
  if (!userId) return;
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify({ userId, savedAt: Date.now(), cards } satisfies Saved));
  } catch {
    // Storage full or disabled (private mode): the cards simply are not kept offline.
  }
}

function forgetSavedCards() {
  try {
    localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Nothing to forget.
  }
}

// Signed out (the account query settles on null): nothing of the account stays on the phone.
queryClient.getQueryCache().subscribe((event) => {
  if (event.query.queryKey[0] === "me" && event.query.state.status === "success" && event.query.state.data === null) forgetSavedCards();
});

const myCardsQueryOptions = (userId: string | undefined) =>
  queryOptions({
    queryKey: ["cards", "mine", userId ?? "offline"],
    queryFn: async () => {
      const cards = await getMyCards();
      save(userId, cards);
      return cards;
    },
    initialData: () => readSaved(userId)?.cards,
    // The saved copy counts as old: it is shown at once and refreshed behind it.
    initialDataUpdatedAt: () => readSaved(userId)?.savedAt,
    staleTime: 0,
  });

/** My cards, with the offline copy; `savedAt` says how old what is shown may be. */
export function useMyCards() {
  const { data: me } = useMe();
  const query = useQuery(myCardsQueryOptions(me?.user.id));
  return query;
}
