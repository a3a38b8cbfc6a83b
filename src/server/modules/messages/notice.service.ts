import { sql } from "drizzle-orm";
import type { Db } from "../../db/client.ts";

/**
 * A notice: an in-app message to one person about their own affairs (a contest win), delivered at once into their
 * inbox and bell (issue 25 row 7). Stored as a message of kind "notice" so the inbox shows it like any other, but
 * kept out of the sender's sent list, quotas and statistics (those read kind 'message' or 'newsletter'). Never
 * pushed, never e-mailed here: the caller sends its own e-mail.
 */
export async function deliverNotice(
  db: Db,
  notice: { shopId: string | null; userId: string; title: string; body: string; linkUrl: string | null },
) {
  await db.execute(sql`
    with m as (
      insert into messages (shop_id, audience, kind, title, body, link_url, with_push, is_promotional, status, started_at, finished_at, total)
      values (${notice.shopId}, 'customers', 'notice', ${notice.title}, ${notice.body}, ${notice.linkUrl}, false, false, 'sent', now(), now(), 1)
      returning id)
    insert into message_deliveries (message_id, user_id, channel, status, delivered_at)
    select m.id, ${notice.userId}, 'inapp', 'delivered', now() from m`);
}
