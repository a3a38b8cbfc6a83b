import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createReward, createShop, createUser, grantPoints } from "../../src/server/db/factories.ts";
import { cards, ledgerEntries, redemptions } from "../../src/server/db/schema/index.ts";
import { parseEnv } from "../../src/server/env.ts";
import { createLogger } from "../../src/server/lib/logger.ts";
import { redeem } from "../../src/server/modules/rewards/redemptions.service.ts";
import { createDeps } from "../../src/server/server.ts";
import { migratedDataDir, type ServerProcess, spawnServer, waitHealthy } from "../setup/api.ts";
import { LONG_TEST, sleep } from "../setup/timing.ts";

/**
 * A pending redemption that expires while the server is down gives its points
 * back when the server starts again, exactly once, however many restarts follow.
 * The server runs as `npm start` runs it (its own process, the embedded database).
 */
const servers: ServerProcess[] = [];
afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
});

describe("expiry across restarts", () => {
  it.skipIf(Boolean(inject("testDatabaseUrl")))(
    "points come back once after a restart, and a second restart adds nothing (run on the PGlite pass only)",
    async () => {
      const dataDir = await migratedDataDir();
      const secret = randomBytes(32).toString("hex");
      const env = { DATA_DIR: dataDir, SECRET: secret };
      const open = () =>
        createDeps(parseEnv({ ...env, SEED_DEMO: "0", LOG_LEVEL: "warn" }), { logger: createLogger("warn") });

      // Before: a shopper reserves a reward (10 of their 10 points), then the server goes down.
      const deps = await open();
      const owner = await createUser(deps, { withoutPassword: true });
      const shop = await createShop(deps, { ownerId: owner.id, rules: { mode: "points" } });
      const reward = await createReward(deps, { shopId: shop.id, cost: 10 });
      const shopper = await createUser(deps, { withoutPassword: true });
      const { cardId } = await grantPoints(deps, { shopId: shop.id, userId: shopper.id, points: 10 });
      const { redemption } = await redeem(deps.database, shopper.id, {
        rewardId: reward.id,
        idempotencyKey: randomUUID(),
      });
      expect(redemption.balance).toBe(0);
      await deps.db
        .update(redemptions)
        .set({ expiresAt: sql`now() + interval '1 second'` })
        .where(eq(redemptions.id, redemption.id));
      const session = await (await deps.auth.$context).internalAdapter.createSession(shopper.id);
      const cookie = `fidele.session_token=${encodeURIComponent(`${session.token}.${createHmac("sha256", secret).update(session.token).digest("base64")}`)}`;
      await deps.database.close();
      await sleep(1500); // it expires while nothing runs

      const state = async () => {
        const d = await open();
        const refunds = await d.db
          .select()
          .from(ledgerEntries)
          .where(and(eq(ledgerEntries.refId, redemption.id), eq(ledgerEntries.kind, "refund")));
        const [card] = await d.db.select({ balance: cards.balance }).from(cards).where(eq(cards.id, cardId));
        const [row] = await d.db
          .select({ status: redemptions.status })
          .from(redemptions)
          .where(eq(redemptions.id, redemption.id));
        await d.database.close();
        return { refunds: refunds.length, balance: card!.balance, status: row!.status };
      };

      for (let restart = 1; restart <= 2; restart++) {
        const server = await spawnServer(env);
        servers.push(server);
        await waitHealthy(server);
        const res = await fetch(`${server.url}/api/redemptions/${redemption.id}`, { headers: { cookie } });
        expect(res.status).toBe(200);
        expect(((await res.json()) as { redemption: { status: string; balance: number } }).redemption).toMatchObject({
          status: "expired",
          balance: 10,
        });
        expect(await server.stop()).toBe(0);
        expect(await state()).toEqual({ refunds: 1, balance: 10, status: "expired" });
      }
    },
    LONG_TEST,
  );
});
