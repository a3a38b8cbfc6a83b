import { sql } from "drizzle-orm";
import { cleanTimeZone, networkOf } from "../../../domain/place.ts";
import type { Db } from "../../db/client.ts";

/**
 * Records where a session was opened, roughly, on its first heartbeat (docs/decisions/0023-approximate-place.md):
 * the browser's time zone and the address cut to its network — never the full address. Later beats change nothing
 * (one index probe). Nothing known, nothing written.
 */
export async function recordSessionPlace(db: Db, sessionId: string, timeZone: string | undefined, ip: string | undefined) {
  const zone = cleanTimeZone(timeZone);
  const network = networkOf(ip);
  if (!zone && !network) return;
  await db.execute(sql`
    insert into session_places (session_id, time_zone, network) values (${sessionId}, ${zone}, ${network})
    on conflict (session_id) do nothing`);
}
