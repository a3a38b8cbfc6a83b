import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Db } from "../src/server/db/client.ts";
import { createShop } from "../src/server/db/factories.ts";
import type { PushService } from "../tests/fixtures/push-service.ts";

/**
 * The world of bench/messages.ts: one shop and `n` customers, each with the push
 * consent and one subscribed device on the local push service, written in bulk SQL
 * (10,000 sign-ups through better-auth would take minutes and measure nothing here).
 */
export type MessagesWorld = { shopId: string; ownerId: string; pushIds: string[] };

export async function seedMessagesWorld(db: Db, n: number, ps: PushService): Promise<MessagesWorld> {
  const ownerId = randomUUID();
  await db.execute(
    sql`insert into "user" (id, name, email, email_verified, role) values (${ownerId}, 'Bench Owner', ${`owner-${ownerId}@bench.local`}, true, 'user')`,
  );
  const shop = await createShop({ db, auth: null as never }, { ownerId, name: "Boutique du banc d'essai" });
  const run = randomUUID().slice(0, 8);
  await db.execute(sql`
    insert into "user" (id, name, email, email_verified, role)
    select ${run} || '-' || g, 'Client ' || g, 'client-' || g || '-' || ${run} || '@bench.local', true, 'user' from generate_series(1, ${n}) g`);
  await db.execute(sql`
    insert into cards (shop_id, user_id, visits, last_scan_at) select ${shop.id}, ${run} || '-' || g, 1, now() from generate_series(1, ${n}) g`);
  await db.execute(sql`
    insert into consents (user_id, channel, granted, wording) select ${run} || '-' || g, 'push', true, 'bench' from generate_series(1, ${n}) g`);
  const pushIds: string[] = [];
  const CHUNK = 1000;
  for (let start = 1; start <= n; start += CHUNK) {
    const rows = [];
    for (let i = start; i < Math.min(n + 1, start + CHUNK); i++) {
      const device = ps.newDevice();
      pushIds.push(device.pushId);
      rows.push({
        user_id: `${run}-${i}`,
        device_id: device.deviceId,
        endpoint: device.subscription.endpoint,
        ...device.subscription.keys,
      });
    }
    await db.execute(sql`
      insert into push_subscriptions (user_id, device_id, endpoint, p256dh, auth)
      select user_id, device_id, endpoint, p256dh, auth
      from json_to_recordset(${JSON.stringify(rows)}::json) as x(user_id text, device_id text, endpoint text, p256dh text, auth text)`);
  }
  return { shopId: shop.id, ownerId, pushIds };
}
