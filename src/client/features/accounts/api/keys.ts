/** Query keys of accounts (who I am is ["me"], in src/client/lib/me.ts, read by every page). */
export const accountsKeys = {
  sessions: () => ["accounts", "sessions"] as const,
  consents: () => ["accounts", "consents"] as const,
};
