import https from "node:https";
import { readFileSync } from "node:fs";
import { openDatabase } from "../src/server/db/client.ts";
import { createPushSender, setPushAgent } from "../src/server/modules/messages/push.ts";
import { finishIfDone, processMessageBatch } from "../src/server/modules/messages/sending.service.ts";

/**
 * One sending process of bench/messages.ts (what a job engine worker would run):
 * batches of one message until nothing is left, on PostgreSQL. Prints one JSON line.
 * Env: BENCH_DB, BENCH_MESSAGE, BENCH_CA (the push service's certificate), BENCH_VAPID (JSON), BENCH_LEASE.
 */
async function main() {
  const database = await openDatabase({ url: process.env.BENCH_DB!, poolSize: 10 });
  database.pool?.on("error", (error) => console.error(`worker ${process.pid}: ${error.message}`));
  setPushAgent(new https.Agent({ ca: readFileSync(process.env.BENCH_CA!), keepAlive: true, maxSockets: 64 }));
  const push = createPushSender(JSON.parse(process.env.BENCH_VAPID!));
  const messageId = process.env.BENCH_MESSAGE!;
  const leaseSeconds = Number(process.env.BENCH_LEASE ?? 120);
  let delivered = 0;
  for (;;) {
    const r = await processMessageBatch({ db: database.db, messageId, limit: 200, push, leaseSeconds });
    delivered += r.delivered;
    if (r.remaining === 0) break;
    if (r.delivered + r.failed + r.skipped === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await finishIfDone(database.db, messageId);
  process.stdout.write(`${JSON.stringify({ delivered })}\n`);
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
