import { queryOptions, useQuery } from "@tanstack/react-query";
import { authFetch } from "../../../lib/api-client.ts";
import { authClient } from "../../../lib/auth-client.ts";
import { accountsKeys } from "./keys.ts";

export type DeviceSession = {
  id: string;
  createdAt: string;
  updatedAt: string;
  userAgent: string | null;
  isCurrent: boolean;
};

/** The account's open sessions, this device's first, without their tokens. */
async function getSessions(): Promise<DeviceSession[]> {
  const [sessions, current] = await Promise.all([
    authClient.listSessions(),
    authFetch<{ session: { id: string } } | null>("/get-session"),
  ]);
  return sessions
    .map((s) => ({
      id: s.id,
      createdAt: s.createdAt,
      updatedAt: s.updatedAt,
      userAgent: s.userAgent ?? null,
      isCurrent: s.id === current?.session.id,
    }))
    .sort((a, b) => Number(b.isCurrent) - Number(a.isCurrent) || b.updatedAt.localeCompare(a.updatedAt));
}

export const sessionsQueryOptions = () => queryOptions({ queryKey: accountsKeys.sessions(), queryFn: getSessions });

export const useSessions = () => useQuery(sessionsQueryOptions());
