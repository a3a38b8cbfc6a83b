import { authFetch } from "./api-client.ts";
import { getSession } from "./get-session.ts";

/**
 * The few better-auth endpoints the web app calls, as plain fetches: the official
 * client would add ~15 kB gzip to every page (docs/decisions/0003-thin-auth-client.md).
 */
export type SignInResult = { twoFactorRedirect?: boolean; redirect?: boolean; url?: string };

export const authClient = {
  signIn: (email: string, password: string) =>
    authFetch<SignInResult>("/sign-in/email", { email, password, rememberMe: true }),
  signOut: () => authFetch<{ success: boolean }>("/sign-out", {}),
  sendSignInCode: (email: string) =>
    authFetch<{ success: boolean }>("/email-otp/send-verification-otp", { email, type: "sign-in" }),
  signInWithCode: (email: string, otp: string) => authFetch<SignInResult>("/sign-in/email-otp", { email, otp }),
  requestPasswordReset: (email: string) =>
    authFetch<{ status: boolean }>("/request-password-reset", { email, redirectTo: "/reset-password" }),
  resetPassword: (token: string, newPassword: string) =>
    authFetch<{ status: boolean }>("/reset-password", { token, newPassword }),
  changePassword: (currentPassword: string, newPassword: string) =>
    authFetch<unknown>("/change-password", { currentPassword, newPassword, revokeOtherSessions: true }),
  resendConfirmation: (email: string) =>
    authFetch<{ status: boolean }>("/send-verification-email", { email, callbackURL: "/confirm" }),
  getSession,
  enableTwoFactor: (password: string) =>
    authFetch<{ totpURI: string; backupCodes: string[] }>("/two-factor/enable", { password }),
  disableTwoFactor: (password: string) => authFetch<{ status: boolean }>("/two-factor/disable", { password }),
  verifyTotp: (code: string, trustDevice = false) => authFetch<unknown>("/two-factor/verify-totp", { code, trustDevice }),
  verifyBackupCode: (code: string) => authFetch<unknown>("/two-factor/verify-backup-code", { code }),
  listSessions: () =>
    authFetch<Array<{ id: string; token: string; createdAt: string; updatedAt: string; userAgent?: string | null; ipAddress?: string | null }>>(
      "/list-sessions",
    ),
  revokeOtherSessions: () => authFetch<{ status: boolean }>("/revoke-other-sessions", {}),
};
