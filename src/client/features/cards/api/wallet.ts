import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, unwrap } from "../../../lib/api-client.ts";
import { cardsKeys } from "./keys.ts";

/** GET /api/wallet/status: `{ apple, google }`, the phone wallets this instance offers (none without settings). */
const getWalletStatus = () => unwrap(api.wallet.status.$get());

const walletStatusQueryOptions = () =>
  queryOptions({ queryKey: cardsKeys.walletStatus(), queryFn: getWalletStatus, staleTime: 60 * 60_000 });

export const useWalletStatus = () => useQuery(walletStatusQueryOptions());

/** The card's Apple pass (a download Safari opens in Wallet) and its Google save link (a redirect to Google). */
export const applePassHref = (cardId: string) => `/api/wallet/cards/${encodeURIComponent(cardId)}/apple.pkpass`;
export const googleSaveHref = (cardId: string) => `/api/wallet/cards/${encodeURIComponent(cardId)}/google`;
