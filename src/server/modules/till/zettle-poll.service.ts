import { and, eq, inArray } from "drizzle-orm";
import { tillConnections, tillSales } from "../../db/schema/index.ts";
import type { Deps } from "../../lib/context.ts";
import { ZettleKeyRefused, zettleConfig, zettlePurchaseIds } from "./zettle.ts";

/**
 * Purchases the Pusher API did not deliver (the instance down past Zettle's retries, an address unreachable for a
 * while, a job that gave up): every hour, each active Zettle connection's purchases of the last day are listed, and
 * each one this shop has no outcome for yet goes through the webhook's own job (`till.purchase`, one per purchase by
 * its singleton key), which reads it and credits or takes back once (ADR 0051).
 */

/** How far back a pass looks: a day, and an hour more so that two passes overlap. */
const ZETTLE_POLL_LOOKBACK_MS = 25 * 3600_000;
/** The last minutes are left to the Pusher API, which delivers them within seconds. */
const ZETTLE_POLL_GRACE_MS = 5 * 60_000;

export async function pollZettlePurchases(deps: Deps, now = new Date()) {
  const connections = await deps.db
    .select({
      shopId: tillConnections.shopId,
      clientId: tillConnections.clientId,
      apiKey: tillConnections.apiKey,
      createdAt: tillConnections.createdAt,
    })
    .from(tillConnections)
    .where(and(eq(tillConnections.vendor, "zettle"), eq(tillConnections.status, "active")));
  const config = zettleConfig(deps.env);
  let queued = 0;
  for (const connection of connections) {
    // Never before the connection: a till's history before it is not the shop's loyalty programme.
    const start = new Date(Math.max(now.getTime() - ZETTLE_POLL_LOOKBACK_MS, connection.createdAt.getTime()));
    const end = new Date(now.getTime() - ZETTLE_POLL_GRACE_MS);
    if (start >= end) continue;
    let ids: string[];
    try {
      ids = await zettlePurchaseIds(config, connection, start, end);
    } catch (error) {
      if (error instanceof ZettleKeyRefused) {
        await deps.db
          .update(tillConnections)
          .set({ status: "refused" })
          .where(eq(tillConnections.shopId, connection.shopId));
      } else {
        // One shop's Zettle out of reach does not keep the others waiting: the next pass looks again.
        deps.logger.warn("zettle: purchases not listed", {
          shopId: connection.shopId,
          error: error instanceof Error ? error.message : String(error),
        });
      }
      continue;
    }
    if (ids.length === 0) continue;
    const known = await deps.db
      .select({ id: tillSales.purchaseId })
      .from(tillSales)
      .where(
        and(
          eq(tillSales.shopId, connection.shopId),
          eq(tillSales.vendor, "zettle"),
          inArray(tillSales.purchaseId, ids),
        ),
      );
    const seen = new Set(known.map((k) => k.id));
    for (const purchaseUuid of ids) {
      if (seen.has(purchaseUuid) || !/^[0-9A-Za-z_-]{8,64}$/.test(purchaseUuid)) continue;
      const sent = await deps.jobs.send(
        "till.purchase",
        { shopId: connection.shopId, purchaseUuid },
        { singletonKey: `zettle:${connection.shopId}:${purchaseUuid}` },
      );
      if (sent) queued++;
    }
  }
  return { shops: connections.length, queued };
}
