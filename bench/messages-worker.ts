import https from "node:https";
import { readFileSync } from "node:fs";
import { openDatabase } from "../src/server/db/client.ts";
import { parseEnv } from "../src/server/env.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { setPushAgent } from "../src/server/modules/messages/push.ts";
import { createDeps } from "../src/server/server.ts";
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
  const vapid = JSON.parse(process.env.BENCH_VAPID!);
  const deps = await createDeps(
    parseEnv({
      SECRET: "bench-secret-bench-secret-bench-secret",
      VAPID_PUBLIC_KEY: vapid.publicKey,
      VAPID_PRIVATE_KEY: vapid.privateKey,
      VAPID_SUBJECT: vapid.subject,
      MESSAGES_LEASE_SECONDS: process.env.BENCH_LEASE ?? "60",
    }),
    { database, logger: createLogger("warn") },
  );
  const messageId = process.env.BENCH_MESSAGE!;
  let delivered = 0;
  for (;;) {
    const r = await processMessageBatch(deps, messageId, { limit: 200 });
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
