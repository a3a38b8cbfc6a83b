import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { authClient } from "../../../lib/auth-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";

/**
 * Set between the sign-out and the login page's first render. The cache is emptied
 * only once /login is on screen: emptied earlier, the guard of the signed-in page
 * being left would see nobody and send us to /login?redirect=… instead (React
 * renders that update before the router's transition commits).
 */
let isCacheToForget = false;

/** Sign-out (SPEC §4): then to /login, and nothing of the account stays in memory. */
export function useSignOut() {
  const navigate = useNavigate();
  return async () => {
    await authClient.signOut();
    isCacheToForget = true;
    await navigate("/login", { replace: true });
  };
}

/** Called by the login page: empties the TanStack Query cache after a sign-out. */
export function useForgetSignedOutAccount() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!isCacheToForget) return;
    isCacheToForget = false;
    queryClient.clear();
    // Known at once, so the layout does not wait for a fetch to learn that nobody is signed in.
    queryClient.setQueryData(meQueryOptions().queryKey, null);
  }, [queryClient]);
}

/** Sign-out from a public page that stays on screen (/login, « Déjà connecté(e) »): forget the account at once. */
export function useSignOutInPlace() {
  const queryClient = useQueryClient();
  return async () => {
    await authClient.signOut();
    // "me" is set, not removed: the page on screen watches that query and must see nobody at once.
    queryClient.setQueryData(meQueryOptions().queryKey, null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryOptions().queryKey[0] });
  };
}
