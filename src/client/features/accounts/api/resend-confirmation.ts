import { authFetch } from "../../../lib/api-client.ts";
import { confirmPath } from "./confirm-path.ts";

/**
 * Sends a new confirmation link. better-auth answers alike for unknown and
 * already confirmed addresses, so this tells nobody who has an account.
 */
export const resendConfirmation = (email: string, redirect: string) =>
  authFetch<{ status: boolean }>("/send-verification-email", { email, callbackURL: confirmPath(redirect) });
