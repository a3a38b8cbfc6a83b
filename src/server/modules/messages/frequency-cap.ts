import { type SQL, sql } from "drizzle-orm";
import {
  DEFAULT_PUSH_CAP,
  FREQUENCY_CAP_DETAIL,
  PUSH_CAP_WINDOW_DAYS,
  RECIPIENT_CAP_WINDOW_HOURS,
} from "../../../domain/messages/frequency-cap.ts";
import type { Db } from "../../db/client.ts";
import type { OutwardChannel } from "./channels/driver.ts";

/**
 * The frequency caps of domain/messages/frequency-cap.ts as the sending engine applies
 * them (sending.service.ts), before in-app delivery and before any driver is called.
 * A message of a platform announcement (no shop) is never capped.
 */
type Capped = { id: string; shop_id: string | null; is_promotional: boolean };

/**
 * SQL: `userId` may receive message `m` now across channels — it already reached them
 * (by another channel), or fewer than `cap` other messages of the shop did in 24 hours.
 */
export function withinRecipientCapSql(m: Capped, userId: SQL, cap: number): SQL {
  if (!m.shop_id) return sql`true`;
  return sql`(exists (select 1 from message_deliveries o where o.message_id = ${m.id} and o.user_id = ${userId}
      and o.status = 'delivered')
    or (select count(distinct o.message_id) from message_deliveries o join messages om on om.id = o.message_id
      where o.user_id = ${userId} and o.status = 'delivered'
        and o.delivered_at > now() - make_interval(hours => ${RECIPIENT_CAP_WINDOW_HOURS})
        and om.shop_id = ${m.shop_id} and o.message_id <> ${m.id}) < ${cap})`;
}

/** Why one outward delivery must not leave (the detail it is skipped with), or null. */
export async function capRefusal(
  db: Db,
  m: Capped,
  userId: string,
  channel: OutwardChannel,
  cap: number,
): Promise<string | null> {
  if (!m.shop_id) return null;
  const pushCapped = channel === "push" && m.is_promotional;
  const [row] = (
    await db.execute<{ ok: boolean; pushes: number }>(sql`
      select ${withinRecipientCapSql(m, sql`${userId}`, cap)} as ok,
        ${
          pushCapped
            ? sql`(select count(*)::int from message_deliveries d join messages dm on dm.id = d.message_id
          where d.user_id = ${userId} and d.channel = 'push' and d.status = 'delivered'
            and dm.shop_id = ${m.shop_id} and dm.is_promotional
            and d.delivered_at > now() - make_interval(days => ${PUSH_CAP_WINDOW_DAYS}))`
            : sql`0`
        } as pushes`)
  ).rows;
  if (!row?.ok) return FREQUENCY_CAP_DETAIL;
  if (pushCapped && Number(row.pushes) >= DEFAULT_PUSH_CAP) return FREQUENCY_CAP_DETAIL;
  return null;
}
