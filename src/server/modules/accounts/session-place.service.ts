import { sql } from "drizzle-orm";
import { cleanTimeZone, networkOf } from "../../../domain/place.ts";
import type { Db } from "../../db/client.ts";

/**
 * Records where a session was opened, roughly, on its first heartbeat (docs/decisions/0028-approximate-place.md):
 * the browser's time zone and the address cut to its network — never the full address. Later beats change nothing
 * (one index probe). Nothing known, nothing written.
 */
export async function recordSessionPlace(db: Db, sessionId: string, timeZone: string | undefined, ip: string | undefined) {
  const zone = cleanTimeZone(timeZone);
  const network = networkOf(ip);
  if (!zone && !network) return;
  // The session may have just been deleted elsewhere (a revocation this process has not heard of yet): then nothing
  // is written, and a race lost to a deletion is no error either — the place is a nicety, the heartbeat is not.
  await db
    .execute(sql`
      insert into session_places (session_id, time_zone, network)
      select s.id, ${zone}, ${network} from session s where s.id = ${sessionId}
      on conflict (session_id) do nothing`)
    .catch((error: unknown) => {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
      if (code !== "23503") throw error;
    });
}
