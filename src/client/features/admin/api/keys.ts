/** Query keys of the platform console: everything under ["admin"], so that one action refreshes every view of it. */
export const adminKeys = {
  all: () => ["admin"] as const,
  overview: () => ["admin", "overview"] as const,
  shops: (q: string) => ["admin", "shops", q] as const,
  smsBudgets: () => ["admin", "sms"] as const,
  retention: (offset: number) => ["admin", "retention", offset] as const,
  users: (q: string) => ["admin", "users", q] as const,
  outbox: () => ["admin", "outbox"] as const,
  smsOutbox: () => ["admin", "sms-outbox"] as const,
  logs: (filters: unknown) => ["admin", "logs", filters] as const,
  connected: () => ["admin", "connected"] as const,
  sessions: () => ["admin", "sessions"] as const,
  notices: () => ["admin", "notices"] as const,
};
