import { authFetch } from "../../../lib/api-client.ts";
import type { SignInResult } from "../../../lib/auth-client.ts";
import { confirmPath } from "./confirm-path.ts";

/**
 * Password sign-in. An address not yet confirmed gets a fresh confirmation link
 * from better-auth; `callbackURL` makes that link land on /confirm (not on "/"),
 * keeping where the person was going.
 */
export const signInWithPassword = (email: string, password: string, redirect: string) =>
  authFetch<SignInResult>("/sign-in/email", { email, password, rememberMe: true, callbackURL: confirmPath(redirect) });
