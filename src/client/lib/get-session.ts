import { authFetch } from "./api-client.ts";

/**
 * Reads the session (better-auth's get-session also extends it when it is due). A module of its own: the app shell
 * needs only this call (session-upkeep.ts), and the rest of auth-client.ts then stays out of the entry chunk.
 */
export const getSession = () => authFetch<{ session: { expiresAt: string } } | null>("/get-session");
