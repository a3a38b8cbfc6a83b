import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { meQueryOptions } from "../../../lib/me.ts";

/**
 * Set between the sign-out and the login page's first render. The cache is emptied
 * only once /login is on screen: emptied earlier, the guard of the signed-in page
 * being left would see nobody and send us to /login?redirect=… instead (React
 * renders that update before the router's transition commits). Its own module: the
 * login page needs this, not the sign-out's code.
 */
let isCacheToForget = false;

/** Called by a sign-out that leaves for /login. */
export const forgetOnLoginPage = () => {
  isCacheToForget = true;
};

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
