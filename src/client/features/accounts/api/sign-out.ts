import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import { authClient } from "../../../lib/auth-client.ts";
import { meQueryOptions } from "../../../lib/me.ts";
import { forgetOnLoginPage } from "./forget-signed-out.ts";

/** Sign-out (SPEC §4): then to /login, and nothing of the account stays in memory. */
export function useSignOut() {
  const navigate = useNavigate();
  return useMutation({
    mutationFn: () => authClient.signOut(),
    onSuccess: async () => {
      forgetOnLoginPage();
      await navigate("/login", { replace: true });
    },
  });
}

/** Sign-out from a public page that stays on screen (/login, « Déjà connecté(e) »): forget the account at once. */
export function useSignOutInPlace() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => authClient.signOut(),
    onSuccess: () => {
      // "me" is set, not removed: the page on screen watches that query and must see nobody at once.
      queryClient.setQueryData(meQueryOptions().queryKey, null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== meQueryOptions().queryKey[0] });
    },
  });
}
