import { randomUUID } from "node:crypto";
import { importCodeKey, rotatingToken, timeStep } from "../src/domain/loyalty/scan-code.ts";
import { openDatabase } from "../src/server/db/client.ts";
import { createLogger } from "../src/server/lib/logger.ts";
import { performScan } from "../src/server/modules/cards/scan.service.ts";
import { createDeps } from "../src/server/server.ts";
import { benchEnv, seedScanWorld } from "./scan-server.ts";
const database = await openDatabase({ memory: true });
const deps = await createDeps(benchEnv(), { database, logger: createLogger("warn") });
const world = await seedScanWorld(deps, 64);
const key = await importCodeKey(world.codeSecret);
const times: number[] = [];
for (let i = 0; i < 600; i++) {
  const u = world.users[i % world.users.length]!;
  const token = await rotatingToken(key, world.scanUid, timeStep(Date.now()));
  const t0 = performance.now();
  const r = await performScan(database, { userId: u.id, actorId: u.id }, { scanUid: world.scanUid, token, idempotencyKey: randomUUID(), deviceId: u.deviceId } as never);
  times.push(performance.now() - t0);
  if (i === 0) console.log(JSON.stringify(r).slice(0, 120));
}
const s = times.slice(100).sort((a, b) => a - b);
console.log(`p50 ${s[Math.floor(s.length / 2)]!.toFixed(2)} ms, p90 ${s[Math.floor(s.length * 0.9)]!.toFixed(2)} ms`);
process.exit(0);
